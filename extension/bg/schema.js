// A small JSON-Schema validator covering exactly what pydantic emits for companion/protocol.py:
// $ref into $defs, oneOf/anyOf (with a discriminator), type, enum, const, required, properties,
// additionalProperties (false or a schema) and items. Returns the first problem as readable text.

const TYPE_CHECKS = {
  string: (v) => typeof v === "string",
  integer: (v) => Number.isInteger(v),
  number: (v) => typeof v === "number" && Number.isFinite(v),
  boolean: (v) => typeof v === "boolean",
  null: (v) => v === null,
  array: (v) => Array.isArray(v),
  object: (v) => v !== null && typeof v === "object" && !Array.isArray(v),
};

function describe(v) {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}

function where(path) {
  return path || "message";
}

export class SchemaValidator {
  constructor(schema) {
    this.root = schema;
  }

  resolve(ref) {
    if (!ref.startsWith("#/")) throw new Error(`unsupported $ref ${ref}`);
    let node = this.root;
    for (const part of ref.slice(2).split("/")) node = node[part];
    if (!node) throw new Error(`dangling $ref ${ref}`);
    return node;
  }

  // The discriminator value of the top-level schema (e.g. the message types), for "unknown type" replies.
  discriminatorValues(node = this.root) {
    return node.discriminator ? Object.keys(node.discriminator.mapping) : [];
  }

  validate(value) {
    return this.check(this.root, value, "");
  }

  // Returns null when `value` conforms, else a message naming the path and the problem.
  check(node, value, path) {
    if (node.$ref) return this.check(this.resolve(node.$ref), value, path);

    if (node.discriminator && (node.oneOf || node.anyOf)) {
      const prop = node.discriminator.propertyName;
      if (!TYPE_CHECKS.object(value)) return `${where(path)}: expected an object, got ${describe(value)}`;
      const tag = value[prop];
      const ref = node.discriminator.mapping[tag];
      if (!ref) return `${path ? path + "." : ""}${prop}: unknown value ${JSON.stringify(tag)}`;
      return this.check(this.resolve(ref), value, path);
    }
    if (node.oneOf) {
      const passing = node.oneOf.filter((sub) => this.check(sub, value, path) === null).length;
      if (passing !== 1) return `${where(path)}: matches ${passing} of the allowed shapes, expected exactly one`;
    }
    if (node.anyOf) {
      const errors = [];
      for (const sub of node.anyOf) {
        const err = this.check(sub, value, path);
        if (err === null) {
          errors.length = 0;
          break;
        }
        errors.push(err);
      }
      // Nullable fields are anyOf [X, null]: the first branch's error is the helpful one.
      if (errors.length) return errors[0];
    }

    if (node.type) {
      const types = Array.isArray(node.type) ? node.type : [node.type];
      if (!types.some((t) => TYPE_CHECKS[t] && TYPE_CHECKS[t](value))) {
        return `${where(path)}: expected ${types.join(" or ")}, got ${describe(value)}`;
      }
    }
    if ("const" in node && value !== node.const) {
      return `${where(path)}: expected ${JSON.stringify(node.const)}, got ${JSON.stringify(value)}`;
    }
    if (node.enum && !node.enum.includes(value)) {
      return `${where(path)}: ${JSON.stringify(value)} is not one of ${node.enum.map((e) => JSON.stringify(e)).join(", ")}`;
    }

    if (TYPE_CHECKS.object(value) && (node.properties || node.required || "additionalProperties" in node)) {
      const props = node.properties || {};
      for (const name of node.required || []) {
        if (!(name in value)) return `${path ? path + "." : ""}${name}: field required`;
      }
      for (const [name, v] of Object.entries(value)) {
        const sub = path ? `${path}.${name}` : name;
        if (props[name]) {
          const err = this.check(props[name], v, sub);
          if (err) return err;
        } else if (node.additionalProperties === false) {
          return `${sub}: unexpected field`;
        } else if (node.additionalProperties && typeof node.additionalProperties === "object") {
          const err = this.check(node.additionalProperties, v, sub);
          if (err) return err;
        }
      }
    }
    if (Array.isArray(value) && node.items) {
      for (let i = 0; i < value.length; i++) {
        const err = this.check(node.items, value[i], `${where(path)}[${i}]`);
        if (err) return err;
      }
    }
    return null;
  }
}

// Loads the schema build.py copies next to the manifest (generated from companion/protocol.py).
let cached = null;
export async function protocolValidator() {
  if (!cached) {
    cached = fetch(chrome.runtime.getURL("protocol.schema.json"))
      .then((r) => r.json())
      .then((schema) => new SchemaValidator(schema));
  }
  return cached;
}

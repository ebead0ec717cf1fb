"""JSON schema -> GBNF grammar, for servers that take a llama.cpp `grammar` but no JSON-schema response_format.

Covers the subset our answer models produce: closed objects with all properties required (in schema order),
strings (maxLength honoured), integer/string enums, integers, numbers, booleans, arrays (maxItems honoured).
Anything else raises UnsupportedSchema and the client skips this mode.
"""

from __future__ import annotations

import json
import re


class UnsupportedSchema(ValueError):
    pass


_BASE_RULES = {
    "ws": '[ \\t\\n]{0,4}',
    "char": '[^"\\\\\\x7F\\x00-\\x1F] | "\\\\" (["\\\\/bfnrt] | "u" [0-9a-fA-F]{4})',
    "integer": '"-"? ([0-9] | [1-9] [0-9]{0,15})',
    "number": '"-"? ([0-9] | [1-9] [0-9]{0,15}) ("." [0-9]{1,15})? ([eE] [-+]? [0-9]{1,3})?',
    "boolean": '"true" | "false"',
}


def _literal(value) -> str:
    """A GBNF string literal that matches the JSON text of value."""
    text = json.dumps(value, ensure_ascii=False)
    return json.dumps(text, ensure_ascii=False)


class _Builder:
    def __init__(self):
        self.rules: dict[str, str] = {}

    def rule(self, hint: str, body: str) -> str:
        name = hint
        n = 1
        while name in self.rules and self.rules[name] != body:
            n += 1
            name = f"{hint}{n}"
        self.rules[name] = body
        return name

    def visit(self, schema: dict, hint: str) -> str:
        if "enum" in schema:
            return self.rule(f"{hint}-enum", " | ".join(_literal(v) for v in schema["enum"]))
        kind = schema.get("type")
        if kind == "object":
            props = schema.get("properties", {})
            if set(schema.get("required", [])) != set(props):
                raise UnsupportedSchema("objects must require all their properties")
            parts = ['"{" ws']
            for i, (key, sub) in enumerate(props.items()):
                if i:
                    parts.append('"," ws')
                parts.append(f'{_literal(key)} ws ":" ws {self.visit(sub, re.sub(r"[^a-zA-Z0-9]+", "-", f"{hint}-{key}"))} ws')
            parts.append('"}"')
            return self.rule(hint, " ".join(parts))
        if kind == "string":
            if "pattern" in schema:
                # A regex is not translated; our validation still enforces it (and retries with the error).
                pass
            limit = schema.get("maxLength")
            body = f'"\\"" char{{0,{int(limit)}}} "\\""' if limit is not None else '"\\"" char* "\\""'
            return self.rule(f"{hint}-str", body)
        if kind in ("integer", "number", "boolean"):
            self.rules.setdefault(kind, _BASE_RULES[kind])
            return kind
        if kind == "array":
            item = self.visit(schema.get("items", {}), f"{hint}-item")
            limit = schema.get("maxItems")
            more = f'("," ws {item}){{0,{max(int(limit) - 1, 0)}}}' if limit is not None else f'("," ws {item})*'
            if limit == 0:
                return self.rule(hint, '"[" ws "]"')
            return self.rule(hint, f'"[" ws ({item} ws {more} ws)? "]"')
        raise UnsupportedSchema(f"schema node not supported by the GBNF converter: {json.dumps(schema)[:80]}")


def schema_to_gbnf(schema: dict) -> str:
    builder = _Builder()
    builder.rules["ws"] = _BASE_RULES["ws"]
    builder.rules["char"] = _BASE_RULES["char"]
    top = builder.visit(schema, "answer")
    lines = [f"root ::= ws {top} ws"] + [f"{name} ::= {body}" for name, body in builder.rules.items()]
    return "\n".join(lines) + "\n"

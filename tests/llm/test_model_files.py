"""The embedded model files: joined from chunks, refused unless their sha256 matches the pinned value."""

import pytest

from companion.llm.model_files import EMBEDDED_MODELS, EmbeddedModel, ModelError, ensure_model, join_chunks, verify


def test_every_catalog_model_pins_versions_and_a_hash():
    for model in EMBEDDED_MODELS.values():
        assert all("==" in pkg for pkg in model.packages)
        assert len(model.packages) == len(model.chunk_paths)
        assert len(model.sha256) == 64 and model.size > 0


def test_a_tampered_model_file_is_refused(fresh_dirs):
    model = EMBEDDED_MODELS["smollm2-135m"]
    target = fresh_dirs / "cache" / "models" / model.filename
    target.parent.mkdir(parents=True)
    target.write_bytes(b"GGUF" + b"\0" * 100)
    with pytest.raises(ModelError, match="refusing to load"):
        ensure_model("smollm2-135m", install=False)


def test_same_size_wrong_content_is_refused_by_hash(tmp_path):
    path = tmp_path / "m.gguf"
    path.write_bytes(b"x" * 10)
    model = EmbeddedModel(name="t", description="", filename="m.gguf", packages=[], chunk_paths=[], size=10, sha256="0" * 64)
    with pytest.raises(ModelError, match="sha256 .* differs"):
        verify(model, path)


def test_chunks_are_joined_in_order(tmp_path, monkeypatch):
    import companion.llm.model_files as model_files

    for i, data in enumerate([b"GG", b"UF", b"!"], 1):
        (tmp_path / f"p{i}.bin").write_bytes(data)
    monkeypatch.setattr(model_files, "_site_roots", lambda: [tmp_path])
    model = EmbeddedModel(name="t", description="", filename="t.gguf", packages=["a==1", "b==1", "c==1"],
                          chunk_paths=["p1.bin", "p2.bin", "p3.bin"], size=5, sha256="0" * 64)
    join_chunks(model, tmp_path / "t.gguf")
    assert (tmp_path / "t.gguf").read_bytes() == b"GGUF!"


def test_a_missing_model_names_the_fetch_command(fresh_dirs, monkeypatch):
    import companion.llm.model_files as model_files

    monkeypatch.setattr(model_files, "_site_roots", lambda: [fresh_dirs])
    with pytest.raises(ModelError, match="webchallenger llm fetch embedded:qwen2.5-coder-0.5b"):
        ensure_model("qwen2.5-coder-0.5b", install=False)


@pytest.mark.embedded  # the embedded loader is what reads (and refuses) the file
async def test_a_corrupt_gguf_file_is_a_clear_error_not_a_crash(tmp_path):
    from companion.llm import LLMClient

    bad = tmp_path / "bad.gguf"
    bad.write_bytes(b"not a model" * 100)
    with pytest.raises(ModelError, match="could not load"):
        await LLMClient(spec=f"gguf:{bad}").probe()

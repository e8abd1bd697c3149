import "server-only";

// A turn's limits (README "Agents"): settings in the environment, with defaults that let a
// conversation do real work and stop a runaway loop. Hitting one ends the turn `failed` with a
// sentence naming the limit and its setting.

const positive = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
};

export const agentLimits = () => ({
  /** Model calls in one turn (each may run several tools). */
  modelCalls: positive("AGENT_MAX_MODEL_CALLS", 12),
  /** Input plus output tokens of one turn. */
  tokens: positive("AGENT_MAX_TOKENS_PER_TURN", 300_000),
  /** Wall time of one turn, in seconds, not counting a wait for approval. */
  seconds: positive("AGENT_TURN_SECONDS", 300),
  /** The most a model may write in one call. */
  outputTokens: positive("AGENT_MAX_OUTPUT_TOKENS", 4096),
  /** The JSON of one tool result as the model reads it and the turn stores it; a larger one is cut, saying so. */
  toolResultBytes: positive("AGENT_TOOL_RESULT_MAX_BYTES", 32_768),
});

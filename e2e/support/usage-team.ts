import { seedTeam, apiAs } from "../fixtures";
import { connection, unique } from "./agent-api";
import { createLink, connect } from "./oauth-flow";

/**
 * A team (its owner signs in with `password`) with two connections for the usage tests: acme's,
 * connected through an auth link made for it (the only way to carry an external_id), and a loose
 * API-key one (no client).
 */
export async function teamWithClient(password: string) {
  const team = await seedTeam({ password });
  const api = await apiAs(team.users[0]);
  const link = await createLink(api, { connection_type: "sandbox_oauth", external_id: "acme" });
  await connect(link, "sandbox_oauth", { account: `acct-${unique()}` });
  const acme = (await (await api.get(`/v1/connections/auth-links/${link.id}/status`)).json()).connection_id as string;
  const loose = await connection(api, "sandbox_key", { api_key: `sk-${unique()}` });
  return { team, api, acme, loose };
}

// Generates one Prisma client per engine from the single schema source (run on install).
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { schemaFor, root, runPrisma } from "./engine-env.mjs";

const source = readFileSync(join(root, "prisma", "schema.prisma"), "utf8");
mkdirSync(join(root, "prisma", "generated"), { recursive: true });
writeFileSync(join(root, "prisma", "generated", "postgresql.prisma"), schemaFor("postgresql", source));

for (const engine of ["sqlite", "postgresql"])
  runPrisma(engine, ["generate"], { stdio: ["ignore", "inherit", "inherit"] });

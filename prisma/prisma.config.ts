// Prisma CLI configuration (generate, migrate diff). The JS engine with a driver adapter keeps
// the CLI offline; PRISMA_SCHEMA_FOR picks which engine's schema the CLI reads.
import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";

const engine = process.env.PRISMA_SCHEMA_FOR === "postgresql" ? "postgresql" : "sqlite";

export default defineConfig({
  engine: "js",
  experimental: { adapter: true },
  schema: engine === "postgresql" ? "generated/postgresql.prisma" : "schema.prisma",
  adapter: async () =>
    engine === "postgresql"
      ? new PrismaPg({
          connectionString: process.env.DATABASE_URL?.startsWith("postgres")
            ? process.env.DATABASE_URL
            : "postgresql://postgres@127.0.0.1:5432/postgres",
        })
      : new PrismaBetterSQLite3({
          url: process.env.DATABASE_URL?.startsWith("file:") ? process.env.DATABASE_URL : "file::memory:",
        }),
});

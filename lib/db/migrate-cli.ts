import { migrate } from "@/lib/db/migrate";

migrate()
  .then((r) => console.log(JSON.stringify(r)))
  .catch((e) => {
    console.error(String(e?.message ?? e));
    process.exit(1);
  });

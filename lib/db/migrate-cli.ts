import { migrate } from "@/lib/db/migrate";
import { logger } from "@/lib/observability/logger";

migrate()
  .then((r) => console.log(JSON.stringify(r)))
  .catch((e) => {
    logger.error("migrations failed", { error: e });
    process.exit(1);
  });

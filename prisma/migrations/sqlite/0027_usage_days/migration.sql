-- CreateTable
CREATE TABLE "UsageDay" (
    "teamId" TEXT NOT NULL,
    "day" INTEGER NOT NULL,
    "serviceType" TEXT NOT NULL,
    "connectionId" TEXT NOT NULL DEFAULT '',
    "credits" BIGINT NOT NULL,

    PRIMARY KEY ("teamId", "day", "serviceType", "connectionId"),
    CONSTRAINT "UsageDay_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);


-- Ledger entries from before usage attribution (0024) get theirs: all on no connection, so that
-- usage per connection adds up to the ledger for every period.
INSERT INTO "UsageAttribution" ("teamId", "ledgerEntryId", "connectionId", "credits", "createdAt")
SELECT e."teamId", e."id", NULL, e."creditsUsed", e."createdAt"
FROM "CreditLedgerEntry" e
WHERE e."creditsUsed" <> 0
  AND NOT EXISTS (SELECT 1 FROM "UsageAttribution" a WHERE a."ledgerEntryId" = e."id" AND a."createdAt" = e."createdAt");

-- The days so far, from the attribution and its entries' service types.
INSERT INTO "UsageDay" ("teamId", "day", "serviceType", "connectionId", "credits")
SELECT a."teamId", a."createdAt" / 86400, e."serviceType", COALESCE(a."connectionId", ''), SUM(a."credits")
FROM "UsageAttribution" a
JOIN "CreditLedgerEntry" e ON e."id" = a."ledgerEntryId" AND e."createdAt" = a."createdAt"
GROUP BY a."teamId", a."createdAt" / 86400, e."serviceType", COALESCE(a."connectionId", '');

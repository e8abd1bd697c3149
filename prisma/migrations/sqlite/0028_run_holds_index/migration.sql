-- CreateIndex
CREATE INDEX "WorkflowRun_teamId_status_idx" ON "WorkflowRun"("teamId", "status");


import { Overview } from "@/components/overview/overview";

export const metadata = { title: "Overview · Patchbay" };

export default async function OverviewPage({ params }: { params: Promise<{ team: string }> }) {
  const { team } = await params;
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold tracking-tight">Overview</h1>
      <Overview team={team} />
    </div>
  );
}

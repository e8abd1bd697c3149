import type { Metadata } from "next";
import "./globals.css";
import { HydrationMark } from "@/components/hydration-mark";

export const metadata: Metadata = {
  title: "Patchbay",
  description: "Connections, operation logs and credits for your team, with a public API and an MCP endpoint.",
  icons: { icon: "/favicon.svg" },
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-white font-sans text-zinc-900 antialiased dark:bg-zinc-950 dark:text-zinc-100">
        {children}
        <HydrationMark />
      </body>
    </html>
  );
}

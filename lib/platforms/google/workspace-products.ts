import "server-only";
import type { GoogleProduct } from "@/lib/platforms/google/products";

// Google Workspace and Cloud products (Sheets, Drive, Slides, BigQuery), one line each.
export const workspaceProducts: readonly GoogleProduct[] = [];

import "server-only";
import type { GoogleProduct } from "@/lib/platforms/google/products";
import { sheets } from "@/lib/platforms/google/sheets";
import { drive } from "@/lib/platforms/google/drive";
import { slides } from "@/lib/platforms/google/slides";
import { bigquery } from "@/lib/platforms/google/bigquery";

// Google Workspace and Cloud products (Sheets, Drive, Slides, BigQuery), one line each.
export const workspaceProducts: readonly GoogleProduct[] = [sheets, drive, slides, bigquery];

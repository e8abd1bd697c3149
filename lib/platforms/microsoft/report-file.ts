import "server-only";
import { inflateRawSync } from "node:zlib";

// The Reporting API's download is a ZIP archive holding one CSV file
// (https://learn.microsoft.com/en-us/advertising/reporting-service/reportrequeststatus#reportdownloadurl):
// the first entry is read (stored or deflated, the two methods ZIP writers use) and parsed.

const MAX_UNZIPPED = 50 * 1024 * 1024;

/** The first file of a ZIP archive, via its central directory; null when `zip` is not one. */
export function firstZipEntry(zip: Buffer): Buffer | null {
  // End of central directory: signature 0x06054b50 within the last 64 KiB + 22 bytes.
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 65_557); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return null;
  const central = zip.readUInt32LE(eocd + 16);
  if (central + 46 > zip.length || zip.readUInt32LE(central) !== 0x02014b50) return null;
  const method = zip.readUInt16LE(central + 10);
  const compressed = zip.readUInt32LE(central + 20);
  const local = zip.readUInt32LE(central + 42);
  if (local + 30 > zip.length || zip.readUInt32LE(local) !== 0x04034b50) return null;
  const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
  const data = zip.subarray(start, start + compressed);
  if (method === 0) return data;
  if (method === 8) return inflateRawSync(data, { maxOutputLength: MAX_UNZIPPED });
  return null;
}

/** RFC 4180 CSV (quoted fields, doubled quotes, CRLF or LF) into rows of fields; a leading BOM is dropped. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  const s = text.replace(/^\uFEFF/, "");
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quoted) {
      if (c === '"' && s[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && s[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  if (field !== "" || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.length > 1 || r[0] !== "");
}

import { test, expect } from "@playwright/test";
import { encodeParameter, utcMs } from "@/lib/db/instants";
import { formatTime, secondsToZonedInput, zonedInputToSeconds } from "@/components/time/local-time";

// How instants cross the drivers (lib/db/instants.ts) and the dashboard's zone conversions
// (components/time/local-time.tsx) give the same answers whatever this process's TZ is.

const PROCESS_ZONES = ["UTC", "Pacific/Kiritimati", "Pacific/Pago_Pago", "Asia/Kathmandu"];
const at = Date.UTC(2026, 10, 24, 19, 44, 45, 188);

test.afterAll(() => {
  process.env.TZ = "UTC";
});

test("stored instant text decodes to the same milliseconds in every process zone", () => {
  const stored = [
    "2026-11-24T19:44:45.188+00:00", // Prisma on SQLite
    "2026-11-24 19:44:45.188", // PostgreSQL timestamp(3)
    "2026-11-24 19:44:45.188+00", // PostgreSQL timestamptz in a UTC session
    "2026-11-25 09:44:45.188+14", // … in a UTC+14 session
    "2026-11-24T08:44:45.188-11:00",
    "2026-11-25T01:29:45.188+0545",
    "2026-11-24T19:44:45.188Z",
  ];
  for (const zone of PROCESS_ZONES) {
    process.env.TZ = zone;
    for (const text of stored) expect(utcMs(text), `${text} in a process in ${zone}`).toBe(at);
    expect(utcMs("2026-11-24 19:44:45"), `CURRENT_TIMESTAMP text in ${zone}`).toBe(at - 188);
  }
});

test("a Date parameter is sent as UTC text, in Prisma's own form on SQLite", () => {
  for (const zone of PROCESS_ZONES) {
    process.env.TZ = zone;
    expect(encodeParameter("sqlite")(new Date(at))).toBe("2026-11-24T19:44:45.188+00:00");
    expect(encodeParameter("postgresql")(new Date(at))).toBe("2026-11-24T19:44:45.188Z");
    expect(encodeParameter("postgresql")("x")).toBe("x");
  }
});

test("the dashboard's times and date filters follow the display zone, not the process's", () => {
  const cases: [zone: string, seconds: number, input: string, shown: string][] = [
    ["UTC", Date.UTC(2026, 10, 20, 14, 30) / 1000, "2026-11-20T14:30", "20 Nov 2026, 14:30:00"],
    ["America/New_York", Date.UTC(2026, 10, 20, 14, 30) / 1000, "2026-11-20T09:30", "20 Nov 2026, 09:30:00"],
    ["America/New_York", Date.UTC(2026, 6, 1, 14, 30) / 1000, "2026-07-01T10:30", "01 Jul 2026, 10:30:00"],
    ["Pacific/Kiritimati", Date.UTC(2026, 10, 20, 14, 30) / 1000, "2026-11-21T04:30", "21 Nov 2026, 04:30:00"],
    ["Pacific/Pago_Pago", Date.UTC(2026, 10, 20, 5, 0) / 1000, "2026-11-19T18:00", "19 Nov 2026, 18:00:00"],
    ["Asia/Kathmandu", Date.UTC(2026, 10, 20, 0, 0) / 1000, "2026-11-20T05:45", "20 Nov 2026, 05:45:00"],
  ];
  for (const processZone of PROCESS_ZONES) {
    process.env.TZ = processZone;
    for (const [zone, seconds, input, shown] of cases) {
      expect(secondsToZonedInput(String(seconds), zone), `${zone}, process in ${processZone}`).toBe(input);
      expect(zonedInputToSeconds(input, zone), `${zone}, process in ${processZone}`).toBe(String(seconds));
      expect(formatTime(seconds, zone)).toBe(shown);
    }
  }
  expect(zonedInputToSeconds("not a time", "UTC")).toBeUndefined();
  expect(secondsToZonedInput("-1", "UTC")).toBe("");
});

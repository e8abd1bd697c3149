import { readdirSync, readFileSync, readlinkSync } from "node:fs";

// Which process serves a port, and how much CPU a process has used: the benchmarks report work per CPU second.

/**
 * The process listening on 127.0.0.1:`port` (Linux /proc: the socket's inode, then the process
 * holding it), so the server's CPU time can be read; null elsewhere.
 */
export function pidListeningOn(port: number): number | null {
  try {
    const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
    const line = readFileSync("/proc/net/tcp", "utf8")
      .split("\n")
      .find((l) => l.trim().split(/\s+/)[1] === `0100007F:${hexPort}` && l.trim().split(/\s+/)[3] === "0A");
    if (!line) return null;
    const inode = line.trim().split(/\s+/)[9];
    for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
      try {
        if (readdirSync(`/proc/${pid}/fd`).some((fd) => readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`))
          return Number(pid);
      } catch {
        /* another user's process, or gone */
      }
    }
  } catch {
    /* not Linux */
  }
  return null;
}

/** The process ids whose parent is `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const d of readdirSync("/proc").filter((x) => /^\d+$/.test(x))) {
    try {
      if (Number(readFileSync(`/proc/${d}/stat`, "utf8").split(") ")[1].split(" ")[1]) === pid) out.push(Number(d));
    } catch {
      /* gone */
    }
  }
  return out;
}

/**
 * User + system CPU seconds so far of a process and the processes it started (the server's
 * workflow worker: lib/server/workflow-worker.ts), so "the server's CPU" is all of its work
 * (Linux /proc), or NaN.
 */
export function cpuSeconds(pid: number | null): number {
  const own = ownCpuSeconds(pid);
  if (Number.isNaN(own)) return NaN;
  return own + childrenOf(pid!).reduce((sum, child) => sum + (cpuSeconds(child) || 0), 0);
}

/** User + system CPU seconds so far of the process alone, not those it started (Linux /proc), or NaN. */
export function ownCpuSeconds(pid: number | null): number {
  if (pid === null) return NaN;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return NaN;
  }
}

/** The child of `pid` whose command line holds `marker` (the server's workflow worker), or null (Linux /proc). */
export function childPid(pid: number | null, marker: string): number | null {
  if (pid === null) return null;
  for (const d of childrenOf(pid)) {
    try {
      if (readFileSync(`/proc/${d}/cmdline`, "utf8").includes(marker)) return d;
    } catch {
      /* gone */
    }
  }
  return null;
}

/**
 * User + system CPU seconds so far of the PostgreSQL backends serving database `name` on this
 * machine (their process titles name it: "postgres: … <user> <database> …"), or NaN off Linux. A
 * backend that exits takes its CPU with it: read it around a phase whose pools stay connected.
 */
export function databaseCpuSeconds(name: string): number {
  try {
    let sum = 0;
    for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
      try {
        const title = readFileSync(`/proc/${pid}/cmdline`, "utf8");
        if (!title.startsWith("postgres:") || !title.split(/\s+/).includes(name)) continue;
        const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
        sum += (Number(fields[11]) + Number(fields[12])) / 100;
      } catch {
        /* gone */
      }
    }
    return sum;
  } catch {
    return NaN;
  }
}

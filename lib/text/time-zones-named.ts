// The IANA time zones a person's words name ("at 08:30 Europe/Paris", "in America/New_York",
// "UTC"), each once, in the order named: the Copilot keeps the zone it was asked for.

const CANDIDATE = /\b(?:[A-Z][A-Za-z_-]+(?:\/[A-Z][A-Za-z_+-]+){1,2}|UTC)\b/g;

const isZone = (name: string) => {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
};

export function timeZonesNamed(text: string): string[] {
  return [...new Set(text.match(CANDIDATE) ?? [])].filter(isZone);
}

/** One Server-Sent Event: its name (`message` when the server gave none) and its data lines joined. */
type ServerSentEvent = { event: string; data: string };

/** One event block (the lines between two blank lines), or null when it carries no data (a comment, a ping). */
function parseBlock(block: string): ServerSentEvent | null {
  let event = "message";
  const data: string[] = [];
  for (const line of block.split("\n")) {
    if (!line || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
  }
  return data.length ? { event, data: data.join("\n") } : null;
}

/**
 * The events of a `text/event-stream` body as they arrive (the WHATWG format: `event:` and `data:`
 * lines, a blank line ends an event). EventSource would do this, but it only GETs; an agent turn
 * is a POST.
 */
export async function* readEventStream(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      // `stream`: a character split across two chunks is decoded once whole.
      buffer += decoder.decode(value, { stream: true });
      // A CR at the end may be the first half of a CRLF split across chunks: normalised once its LF comes.
      const whole = buffer.endsWith("\r") ? buffer.length - 1 : buffer.length;
      buffer = buffer.slice(0, whole).replace(/\r\n?/g, "\n") + buffer.slice(whole);
      let end: number;
      while ((end = buffer.indexOf("\n\n")) !== -1) {
        const event = parseBlock(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
        if (event) yield event;
      }
    }
    // An event the stream ended in the middle of is dropped, as EventSource does.
  } finally {
    reader.releaseLock();
  }
}

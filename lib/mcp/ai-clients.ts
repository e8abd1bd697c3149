// The AI clients that can add Patchbay's MCP endpoint, one entry each: the /docs/mcp page and
// the "Add to your AI client" list in Settings → MCP servers both read this list, so a client is
// added or its steps corrected in one place. Plain data (no server code): the settings list is a
// client component.
//
// Each client's steps follow its own documentation (the `docs` link); menu labels differ between
// versions and plans, so where those documents disagree the wording stays general.

/** Where the client's requests to /mcp come from: its vendor's servers, or the person's computer. */
type ReachesFrom = "vendor" | "device";

export type AiClient = {
  id: string;
  name: string;
  /** One paragraph, plain text: where to add the URL and what happens next. */
  about: string;
  /** A configuration to paste, with `{url}` where the MCP URL goes. */
  snippet?: { label: string; code: string };
  reachesFrom: ReachesFrom;
  /** The client's own documentation of these steps. */
  docs: { label: string; url: string };
};

export const AI_CLIENTS: readonly AiClient[] = [
  {
    id: "claude-ai",
    name: "Claude (claude.ai)",
    about:
      "Open Settings → Connectors (Customize → Connectors in newer versions), choose Add custom connector, give it a " +
      "name such as Patchbay, paste the URL and choose Add. Then choose Connect: Claude opens Patchbay, where you " +
      "sign in and allow access. On Team and Enterprise plans an organization owner adds the connector first, and " +
      "each member then connects it with their own sign-in. A connector added here is also available in Claude " +
      "Desktop and the mobile apps, which use the same account.",
    reachesFrom: "vendor",
    docs: {
      label: "Claude help: custom connectors using remote MCP",
      url: "https://support.claude.com/en/articles/11175166-getting-started-with-custom-connectors-using-remote-mcp",
    },
  },
  {
    id: "chatgpt",
    name: "ChatGPT",
    about:
      "Custom MCP apps need developer mode: turn it on under Settings → Apps → Advanced settings (Connectors in some " +
      "versions; in a Business, Enterprise or Edu workspace an admin enables it first). Then choose Create app, " +
      "enter a name, paste the URL as the MCP server URL, choose OAuth as the authentication, confirm that you trust " +
      "the app and create it. ChatGPT opens Patchbay, where you sign in and allow access. In a chat, turn the app on " +
      "from the + menu of the message box, under Developer mode.",
    reachesFrom: "vendor",
    docs: {
      label: "OpenAI: ChatGPT developer mode",
      url: "https://developers.openai.com/api/docs/guides/developer-mode",
    },
  },
  {
    id: "claude-desktop",
    name: "Claude Desktop",
    about:
      "Add it as a connector, as on claude.ai: Settings → Connectors → Add custom connector, paste the URL, then " +
      "Connect and sign in to Patchbay in the browser. A connector already added on claude.ai with the same account " +
      "is there already. Claude Desktop does not connect to remote servers written into claude_desktop_config.json; " +
      "where only that file is available, the mcp-remote bridge runs as a local server and does the same sign-in in " +
      "your browser (it needs Node.js).",
    snippet: {
      label: "claude_desktop_config.json, with mcp-remote",
      code: `{
  "mcpServers": {
    "patchbay": {
      "command": "npx",
      "args": ["-y", "mcp-remote", "{url}"]
    }
  }
}`,
    },
    reachesFrom: "vendor",
    docs: {
      label: "Claude help: building custom connectors via remote MCP servers",
      url: "https://support.claude.com/en/articles/11503834-building-custom-connectors-via-remote-mcp-servers",
    },
  },
  {
    id: "cursor",
    name: "Cursor",
    about:
      "Add an entry with just the URL under mcpServers in ~/.cursor/mcp.json (every project) or .cursor/mcp.json in " +
      "a project (that project only); Cursor Settings also open this file for you. Cursor sees that Patchbay needs a " +
      "sign-in and marks the server as needing a login: start it there, sign in to Patchbay in the browser and allow " +
      "access.",
    snippet: {
      label: "~/.cursor/mcp.json",
      code: `{
  "mcpServers": {
    "patchbay": {
      "url": "{url}"
    }
  }
}`,
    },
    reachesFrom: "device",
    docs: { label: "Cursor docs: Model Context Protocol", url: "https://cursor.com/docs/mcp" },
  },
  {
    id: "vscode",
    name: "VS Code",
    about:
      "Run MCP: Add Server from the Command Palette, choose HTTP, paste the URL and choose Workspace (this project's " +
      ".vscode/mcp.json) or Global (your user profile). Or write the entry yourself; MCP: Open User Configuration " +
      "opens the profile's file. When the server first starts, VS Code asks you to trust it and to sign in, and " +
      "opens Patchbay in the browser, where you allow access.",
    snippet: {
      label: ".vscode/mcp.json",
      code: `{
  "servers": {
    "patchbay": {
      "type": "http",
      "url": "{url}"
    }
  }
}`,
    },
    reachesFrom: "device",
    docs: {
      label: "VS Code docs: use MCP servers",
      url: "https://code.visualstudio.com/docs/copilot/customization/mcp-servers",
    },
  },
];

/**
 * Clients that cannot sign in but can send a header: a static MCP token of one server. Not a
 * catalogue entry (no single place to put the URL), the same note on both pages.
 */
export const HEADER_CLIENTS_NOTE =
  "Any other client that takes a URL and a header: create a token under Settings → MCP servers (a server's " +
  "Tokens, then Create token) and send it as Authorization: Bearer pbm_… with every request to the URL.";

/** The snippet with the URL in place of every `{url}`. */
export const withUrl = (code: string, url: string) => code.replaceAll("{url}", url);

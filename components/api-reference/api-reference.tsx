"use client";

// First: zod must be jitless before Scalar's own modules build their schemas.
import "@/components/api-reference/zod-jitless";
import { ApiReferenceReact } from "@scalar/api-reference-react";
import "@scalar/api-reference-react/style.css";
import { useEffect, type ComponentProps } from "react";

type Configuration = ComponentProps<typeof ApiReferenceReact>["configuration"];

// The app's palette (zinc and indigo) and system fonts, so the reference sits in the product.
// Unlayered, so it wins over Scalar's theme (which sits in @layer scalar-theme).
const CUSTOM_CSS = `
.scalar-app, .light-mode, .dark-mode {
  --scalar-font: ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  --scalar-font-code: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
  --scalar-custom-header-height: 3.5rem;
}
@media (max-width: 639.98px) {
  .scalar-app, .light-mode, .dark-mode { --scalar-custom-header-height: 4rem; }
}
.light-mode {
  --scalar-background-1: #fff;
  --scalar-background-2: #fafafa;
  --scalar-background-3: #f4f4f5;
  --scalar-background-accent: #eef2ff;
  --scalar-color-1: #18181b;
  --scalar-color-2: #3f3f46;
  --scalar-color-3: #52525b;
  --scalar-color-accent: #4338ca;
  --scalar-color-green: #15803d;
  --scalar-color-blue: #1d4ed8;
  --scalar-color-orange: #c2410c;
  --scalar-color-red: #b91c1c;
  --scalar-color-yellow: #a16207;
  --scalar-color-purple: #7e22ce;
  --scalar-border-color: #e4e4e7;
  --scalar-link-color: #4338ca;
  --scalar-button-1: #4338ca;
  --scalar-button-1-hover: #4f46e5;
  --scalar-button-1-color: #fff;
}
.dark-mode {
  --scalar-background-1: #09090b;
  --scalar-background-2: #18181b;
  --scalar-background-3: #27272a;
  --scalar-background-accent: #1e1b4b;
  --scalar-color-1: #f4f4f5;
  --scalar-color-2: #d4d4d8;
  --scalar-color-3: #a1a1aa;
  --scalar-color-accent: #a5b4fc;
  --scalar-color-green: #4ade80;
  --scalar-color-blue: #93c5fd;
  --scalar-color-orange: #fdba74;
  --scalar-color-red: #fca5a5;
  --scalar-color-yellow: #fde047;
  --scalar-color-purple: #d8b4fe;
  --scalar-border-color: #27272a;
  --scalar-link-color: #a5b4fc;
  --scalar-button-1: #4338ca;
  --scalar-button-1-hover: #4f46e5;
  --scalar-button-1-color: #fff;
}
/* Every control at least 24 px square (WCAG 2.5.8): the sidebar's group toggles and the phone menu button are smaller. */
.scalar-app li[data-sidebar-id] button, .scalar-app [id^="headlessui-popover-button"] {
  min-width: 24px;
  min-height: 24px;
}
`;

/**
 * Scalar's copy buttons on code blocks are an icon with no name; a screen reader would say
 * only "button". Each one (they come and go as operations render) is named here.
 */
function useNamedCopyButtons() {
  useEffect(() => {
    const name = () =>
      document
        .querySelectorAll<HTMLButtonElement>("button.scalar-code-copy:not([aria-label])")
        .forEach((b) => b.setAttribute("aria-label", "Copy code"));
    name();
    // Scalar renders in bursts: one look per frame, however many nodes changed in it.
    let frame = 0;
    const observer = new MutationObserver(() => {
      if (!frame) frame = requestAnimationFrame(() => ((frame = 0), name()));
    });
    observer.observe(document.body, { childList: true, subtree: true });
    return () => (observer.disconnect(), cancelAnimationFrame(frame));
  }, []);
}

/**
 * Everything that would reach outside this server is off: Scalar's hosted fonts, its request
 * proxy (no proxyUrl, so try-it requests go straight to the document's server, this origin),
 * telemetry, the AI agent and the MCP button (both on by default on localhost), the developer
 * toolbar and the "open in Scalar's client" button (links to scalar.com's apps).
 */
const CONFIGURATION: Configuration = {
  url: "/v1/openapi.json",
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: "never",
  hideClientButton: true,
  // The header above links the raw document; Scalar's own download would be a second one.
  documentDownloadType: "none",
  // The app follows the system's light or dark, with no switch of its own.
  hideDarkModeToggle: true,
  // A reader's API key stays in the tab, not in localStorage.
  persistAuth: false,
  // The samples a reader can pick: curl and Python requests from Scalar, and the operation's own
  // x-codeSamples (@patchbay/client), which Scalar lists whatever this says.
  hiddenClients: {
    c: true,
    clojure: true,
    csharp: true,
    dart: true,
    fsharp: true,
    go: true,
    http: true,
    java: true,
    js: true,
    julia: true,
    kotlin: true,
    node: true,
    objc: true,
    ocaml: true,
    php: true,
    powershell: true,
    python: ["python3", "aiohttp", "httpx_sync", "httpx_async"],
    r: true,
    ruby: true,
    rust: true,
    shell: ["httpie", "wget"],
    swift: true,
  },
  defaultHttpClient: { targetKey: "shell", clientKey: "curl" },
  modelsSectionLabel: "Schemas",
  // Links made for the page before Scalar (/docs/api#schema-Connection) land on the same schema.
  redirect: (hash: string) => {
    const schema = /^#schema-([\w.-]+)$/.exec(hash)?.[1];
    return schema ? `#schemas/${schema}` : null;
  },
  customCss: CUSTOM_CSS,
};

/** The interactive reference, rendered in the browser from the live /v1/openapi.json. */
export function ApiReference() {
  useNamedCopyButtons();
  return <ApiReferenceReact configuration={CONFIGURATION} />;
}

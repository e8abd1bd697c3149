// The Content-Security-Policy of every response (pages, the API, the sandbox's own HTML).
// script-src needs 'unsafe-inline': Next's App Router streams the page's data as inline
// <script> tags. The alternative, a nonce per request from proxy.ts, would make every page pay
// for the proxy (an extra pass over each response body) and keep pages from being static; what
// the policy still forbids is the real risk here: scripts, frames, fetches or form-less
// beacons to any other origin. style-src 'unsafe-inline' is for React's server-rendered style
// attributes (table column templates, gauges) and the sandbox authorize page's <style>. Logos
// are data: URIs. No form-action: "Continue" on the connect page and single sign-on post to our
// own routes, which redirect to the provider, and Chromium applies form-action to redirects.
const isDev = process.env.NODE_ENV === "development";
const csp = [
  "default-src 'self'",
  `script-src 'self' 'unsafe-inline'${isDev ? " 'unsafe-eval'" : ""}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
].join("; ");

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native and driver modules stay as runtime requires instead of being bundled.
  serverExternalPackages: [
    "better-sqlite3",
    "@prisma/adapter-better-sqlite3",
    "@prisma/adapter-pg",
    "pg",
    "redis",
    "@redis/client",
  ],
  poweredByHeader: false,
  // The build does not type-check: `npm test` and CI do (`npm run typecheck`, on the route types
  // `next typegen` writes), before anything is built. On a first `npm start` the check took 32-34 s
  // of an 80 s start, spent on code that CI had already checked.
  typescript: { ignoreBuildErrors: true },
  // Every page's metadata is static, so blocking on it costs nothing: the <title> is in the
  // first HTML's <head> for every user agent, not streamed into the body and hoisted later
  // (streamed, a page's title was at times missing when axe or a screen reader read it).
  htmlLimitedBots: /.*/,
  typedRoutes: false,
  experimental: {
    // Turbopack's build cache (.next/cache) makes a rebuild after a change about 2× faster (34 s
    // against 74 s here), but writing it makes the first build slower (109 s against 74 s). A
    // clean CI checkout builds once and never reads it, so CI (CI=true) goes without.
    turbopackFileSystemCacheForBuild: process.env.CI !== "true",
  },
  // Computed at build time (production serves them from the routes manifest), so nothing here
  // may depend on the runtime environment: Strict-Transport-Security is set in proxy.ts.
  async headers() {
    return [
      {
        // Nothing of this app is meant to be framed (clickjacking).
        source: "/:path*",
        headers: [
          { key: "Content-Security-Policy", value: csp },
          { key: "X-Frame-Options", value: "DENY" },
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
        ],
      },
      // The public connect and invite pages carry a secret token in their URL: never sent on
      // as a Referer (to the provider, or anywhere a link leads), never indexed.
      ...["/connect/:path*", "/invite/:path*"].map((source) => ({
        source,
        headers: [
          { key: "Referrer-Policy", value: "no-referrer" },
          { key: "X-Robots-Tag", value: "noindex" },
        ],
      })),
    ];
  },
};

export default nextConfig;

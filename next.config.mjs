/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native and driver modules stay as runtime requires instead of being bundled.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "@prisma/adapter-pg", "pg"],
  poweredByHeader: false,
  typedRoutes: false,
  async headers() {
    return [
      {
        // The public connect pages carry the link's secret token in their URL: never framed
        // (no clickjacking of "Continue"), never sent on as a Referer to the provider.
        source: "/connect/:path*",
        headers: [
          { key: "Content-Security-Policy", value: "frame-ancestors 'none'" },
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Referrer-Policy", value: "no-referrer" },
          { key: "X-Robots-Tag", value: "noindex" },
        ],
      },
    ];
  },
};

export default nextConfig;

import net from "node:net";

/**
 * A TCP forwarder that can cut the line: between an app instance and its database, `down()`
 * drops every open connection and refuses new ones (the database gone, as in a restart or a
 * network cut), `up()` accepts again on the same port.
 */
export async function tcpProxy(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;
  const listen = () =>
    new Promise<void>((ready) => {
      server = net.createServer((client) => {
        const upstream = net.connect(target.port, target.host);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on("close", () => sockets.delete(s));
          s.on("error", () => s.destroy());
        }
        client.pipe(upstream).pipe(client);
        client.on("close", () => upstream.destroy());
        upstream.on("close", () => client.destroy());
      });
      server.listen(port, "127.0.0.1", () => {
        port = (server!.address() as net.AddressInfo).port;
        ready();
      });
    });
  await listen();
  return {
    get port() {
      return port;
    },
    async down() {
      await new Promise<void>((closed) => {
        server!.close(() => closed());
        for (const s of sockets) s.destroy();
      });
    },
    up: listen,
    close() {
      for (const s of sockets) s.destroy();
      server?.close();
    },
  };
}

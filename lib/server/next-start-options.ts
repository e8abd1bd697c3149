/**
 * Options of every `next start` (`npm start` and the test servers). Idle keep-alive connections
 * stay open 65 s, longer than the idle reuse of common load balancers (60 s) and HTTP clients:
 * with Node's default of 5 s, a request sent on a connection the server is just closing meets a
 * reset, which a client cannot safely retry for a POST or DELETE.
 */
export const NEXT_START_OPTIONS = ["--keepAliveTimeout", "65000"];

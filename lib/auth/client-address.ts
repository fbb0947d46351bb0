/**
 * The header the service's own server (server/http.ts) sets on every request to the address it took the connection
 * from (or, with TRUST_PROXY, the address the proxy names); whatever a client sent under that name is replaced. The
 * limits on guessing (lib/auth) count by it.
 */
export const CLIENT_ADDRESS_HEADER = 'x-rmb-client-address';

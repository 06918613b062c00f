/**
 * How often a long-lived connection that has nothing to say speaks anyway (an SSE comment, a
 * WebSocket ping). Proxies and load balancers close one that stays silent for a minute (nginx's
 * and common cloud balancers' idle timeouts are 60 s); more often only costs the server, which
 * speaks on every open connection: graphql-ws's own default of 12 s took 7.6% of an API's busy time
 * holding 2,500 WebSockets (bench/README.md, "CPU by role").
 */
export const keepAliveMs = 25_000;

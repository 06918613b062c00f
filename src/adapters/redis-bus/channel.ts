/**
 * The pub/sub channel of one deployment. Redis pub/sub ignores the database number: a message
 * published while connected to database 2 reaches subscribers connected to database 5. Two
 * deployments sharing a server on different databases (their queues and keys are apart) would
 * then hear each other's events, and an account id both hold would get the other's. So the
 * channel names the database; database 0 keeps the plain name, which every deployment used before,
 * so an upgrade on it changes no channel.
 */
export function channelOfDatabase(name: string, db: number | undefined): string {
  return db === undefined || db === 0 ? name : `${name}:db${db}`;
}

/** Whether the built app (dist/) is missing or older than what it is built from. */
export function buildIsStale(): boolean;
/** The project's folder. */
export const projectRoot: string;

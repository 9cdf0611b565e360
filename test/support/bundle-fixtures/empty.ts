/** A handler that does nothing: the cost of Node itself loading a module (bin/bench-cold-start.ts). */
export const handler = async (): Promise<null> => null;

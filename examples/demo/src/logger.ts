export interface Logger {
  debug(message: string): void;
}

export const silent: Logger = { debug: () => undefined };

import type { Logger } from "./logger";

export function trace(log: Logger, step: string): void {
  // Left over from debugging: the demo constraint (shadow) reports this line.
  console.log("step", step);
  log.debug(step);
}

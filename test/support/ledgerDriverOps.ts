// The kinds of transaction the crash driver performs, shared by the driver and its test.
export const DRIVER_OPS = ["admit", "starting", "running", "prepare", "dispatch", "batch", "finish"] as const;
export type DriverOp = (typeof DRIVER_OPS)[number];

// Background work: bash commands started with run_in_background, read with bash_output, ended
// with bash_kill, announced to the model when they end.

export { BackgroundJobs } from "./jobs.js";
export { createBackgroundNotifications } from "./notifications.js";

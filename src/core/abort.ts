/** Resolves (with undefined) once `signal` is aborted, at once if it already is: for Promise.race. */
export function whenAborted(signal: AbortSignal): Promise<undefined> {
  return new Promise<undefined>((resolve) => {
    if (signal.aborted) resolve(undefined);
    else signal.addEventListener("abort", () => resolve(undefined), { once: true });
  });
}

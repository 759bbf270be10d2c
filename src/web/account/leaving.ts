/**
 * While 'Delete my account' runs, the person's sessions end on the server before its answer arrives: a live
 * stream's refusal or a refetch may tell a page's sign-in guard that nobody is signed in, and the guard would send
 * them to sign in (a page loaded on demand) while the deletion sends them home, the later navigation winning
 * (seen under load in CI). Guards wait instead while this is set; the deletion goes home, then clears it.
 */
let leaving = false;

export const accountLeaving = {
  get active(): boolean {
    return leaving;
  },
  start(): void {
    leaving = true;
  },
  end(): void {
    leaving = false;
  },
};

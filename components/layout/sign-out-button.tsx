'use client';

import { signOut } from 'next-auth/react';

/**
 * Signs out, then opens the sign-in page at the address in use: next-auth's own redirect goes to NEXTAUTH_URL
 * (http://localhost:PORT unless configured), which is not where someone reaching the portal by another name is.
 */
async function signOutHere() {
  await signOut({ redirect: false });
  window.location.assign('/signin?signed_out=1');
}

export function SignOutButton() {
  return (
    <button type="button" onClick={() => void signOutHere()}>
      Sign out
    </button>
  );
}

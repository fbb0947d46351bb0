'use client';

/**
 * Signs out, then opens the sign-in page at the address in use: next-auth's own redirect goes to NEXTAUTH_URL
 * (http://localhost:PORT unless configured), which is not where someone reaching the portal by another name is.
 * next-auth's client is loaded on the click: every portal page has this button, and none needs that code before.
 */
export async function signOutHere(to = '/signin?signed_out=1') {
  const { signOut } = await import('next-auth/react');
  await signOut({ redirect: false });
  window.location.assign(to);
}

export function SignOutButton() {
  return (
    <button type="button" onClick={() => void signOutHere()}>
      Sign out
    </button>
  );
}

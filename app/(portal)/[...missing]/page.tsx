import { notFound } from 'next/navigation';

/** Any address no page answers: the portal's own 404 (app/(portal)/not-found.tsx), inside its layout. */
export default function MissingPage() {
  notFound();
}

import type { Metadata } from 'next';
import { GroupsManager } from '@/components/groups/groups-manager';
import { pageData } from '@/lib/server/page-data';

export const metadata: Metadata = { title: 'Groups' };

export default async function GroupsPage() {
  const { me } = await pageData(async (_db, u) => ({ me: u.username }));
  return (
    <>
      <h1>Groups</h1>
      <p>
        A group is a set of people you work with. Share a profile with a group from the profile’s Sharing section: everyone in the group
        then sees it (or contributes to it), as people join and leave.
      </p>
      <GroupsManager me={me} />
    </>
  );
}

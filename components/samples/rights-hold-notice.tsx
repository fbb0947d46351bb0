import { When } from '@/components/ui/when';
import type { TolProject } from '@/lib/projects/contract';
import { localContextsProjectPage } from '@/lib/repositories/local-contexts';
import { traditionalKnowledgeProject } from '@/lib/samples/rights-hold';

/**
 * Why a private sample waits, on its page: its traditional-knowledge project at the Local Contexts Hub is not public
 * yet, so it is neither decided nor sent to ENA; when the hub was last asked and what it said.
 */
export function RightsHoldNotice({
  sample,
  hubUrl,
}: {
  sample: {
    project: TolProject;
    fields: Record<string, string>;
    statusDetail: string | null;
    rightsCheckedAt: Date | null;
  };
  /** LOCAL_CONTEXTS_URL */
  hubUrl: string;
}) {
  const projectId = traditionalKnowledgeProject(sample.project, sample.fields);
  return (
    <div className="notice">
      <p>
        Private: this sample is under traditional-knowledge or biocultural rights. It cannot be decided, nor sent to ENA, and the public API
        shows it only as embargoed, until the community makes its project{' '}
        {projectId ? (
          <a href={localContextsProjectPage(hubUrl, projectId)} className="mono" target="_blank" rel="noreferrer">
            {projectId}
          </a>
        ) : (
          '(none named)'
        )}{' '}
        public at the Local Contexts Hub. The hub is asked every hour; its sample managers can also ask at once from the review queue.
      </p>
      <p>
        {sample.rightsCheckedAt ? (
          <>
            Last checked <When value={sample.rightsCheckedAt} />: {sample.statusDetail ?? 'the project is not public yet.'}
          </>
        ) : (
          'The hub has not been asked about its project yet.'
        )}
      </p>
    </div>
  );
}

// One tournament's detail rendered to HTML with react-dom/server, its buttons calling back nothing:
// what the tournaments tab's tests and the Chinese render's look at.
import { renderToStaticMarkup } from 'react-dom/server';
import { TournamentDetail, type EntryAction } from '../ui/tournaments-panel.js';
import { ALICE, tournamentDetail } from './fixtures.js';

/**
 * The detail of `tournamentDetail(over, config)` as alice (`props.meId` for someone else), busy or
 * with a refusal as `props` say.
 */
export function tournamentDetailHtml(
  over: Parameters<typeof tournamentDetail>[0] = {},
  props: { meId?: string; busy?: boolean; error?: unknown; failed?: EntryAction } = {},
  config?: Parameters<typeof tournamentDetail>[1],
): string {
  return renderToStaticMarkup(
    <TournamentDetail
      tournament={tournamentDetail(over, config)}
      meId={ALICE}
      onRegister={() => undefined}
      onReEnter={() => undefined}
      onUnregister={() => undefined}
      onAddOn={() => undefined}
      {...props}
    />,
  );
}

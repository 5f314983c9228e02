import { defineModule } from '../../lib/module';
import router from './index';
import { aiErrors } from './errors';

export default defineModule({
  name: 'ai-helpers',
  router,
  errors: aiErrors.table,
  tags: [
    {
      name: 'AI helpers',
      description: `Writing and question helpers, the paid website audit, receipts and licences read from documents, draft inventory from a web
page and the page proxy for picking items. Workers AI when configured; deterministic, honest rules otherwise (they read what can be read and
say when they cannot). Outside pages and images are fetched with the safe public fetch.`,
    },
  ],
});

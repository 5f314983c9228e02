import { defineModule } from '../../lib/module';
import router from './index';
import { analyzeRecordPhotos, nextStalePhotoAnalysis, PHOTO_ANALYSIS_KIND, resendStalePhotoAnalyses } from './photo-analysis';

export default defineModule({
  name: 'boat-records',
  router,
  queue: { [PHOTO_ANALYSIS_KIND]: analyzeRecordPhotos },
  jobs: [
    {
      name: 'boat-records.photo-analysis-sweep',
      cron: '*/5 * * * *',
      run: (ctx) => resendStalePhotoAnalyses(ctx),
      nextDue: (ctx) => nextStalePhotoAnalysis(ctx),
    },
  ],
  tags: [{ name: 'Inventory records', description: 'Check-in and check-out records of boats: condition, fuel, engine hours, photos.' }],
});

-- Staff say why they approve a Tron top-up the chain did not confirm (issue 31); kept with the decision.
ALTER TABLE "topups" ADD COLUMN "decision_note" text;

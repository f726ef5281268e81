-- Confirms a request whose response counts it as it was taken (countWhen matched, or an estimate used in
-- full): its units stay counted, and are no longer pending (pending_release.lua, before this), so that the
-- next denial they cause is final and starts the penalty. Returns {1}.
return {1}

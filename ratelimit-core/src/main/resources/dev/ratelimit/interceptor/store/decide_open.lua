-- Opens the function the algorithm's body becomes, so that counter_tail.lua can see its answer.
local function decide()

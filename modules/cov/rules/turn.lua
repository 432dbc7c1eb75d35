-- Congress of Vienna: the turn (Playbook 16). The Initial Phase and the Diplomacy Phase are
-- played by the rules; the Government Phase, the War Phase and the End of Turn are still
-- played by hand on the "table" state, which hands the next turn back to this one.

local turn = {}

turn.turn = {}

function turn.turn.run(ctx)
  local locals = ctx.locals
  if locals.stage == nil then
    locals.stage = "initial"
    ctx:set_phase("initial")
    ctx:call("initial", {})
  elseif locals.stage == "initial" then
    locals.stage = "diplomacy"
    ctx:set_phase("diplomacy")
    ctx:log(string.format("Turn %d: Diplomacy Phase.", ctx:turn()))
    ctx:call("diplomacy", {})
  else
    locals.stage = "by_hand"
    ctx:set_phase("government")
    ctx:log(string.format("Turn %d: Government Phase.", ctx:turn()))
    ctx:call("table", { automated = true })
  end
end

function turn.turn.on_resume(ctx)
  if ctx.locals.stage == "by_hand" then
    -- The table began the next turn.
    ctx.locals.stage = nil
  end
end

return turn

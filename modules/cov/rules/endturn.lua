-- Congress of Vienna: the End of Turn (16.5) and the end of the game (17.x, 18.2.5, 18.3,
-- 18.4.3, 20.12, 21.11, 22.2). The Victory Point Summary is scored (the items the Playbook
-- gives, then the players' own adjustments from the player aid), the game ends by sudden
-- death, by the scenario's own end or at its last turn, and otherwise the next turn is
-- prepared: one deck again without the Leaders, the issues back on the Diplomacy Display,
-- the markers reset.

local powers = include("rules/powers.lua")
local forces = include("rules/forces.lua")
local cards = include("rules/cards.lua")
local victory = include("rules/victory.lua")
local handicap = include("rules/handicap.lua")
local decide = include("rules/decide.lua")
local steps = include("@lib/steps.lua")

local endturn = {}

local name = powers.name

local function add_vp(ctx, power, n, why)
  powers.score(ctx, power, n, "Victory Point Summary, " .. why)
end

-- The power that holds a space of a front for its per-turn VP: France, or the Allied power
-- whose army stands on that front nearest the space (L563: Britain holds Castile).
local function holder(ctx, front, space)
  local side = forces.controller(ctx, front, space)
  if side == "FR" then
    return "FR"
  elseif side == nil then
    return nil
  end
  for _, block in ipairs(forces.armies(ctx, function(id, piece)
    return piece.props.front == front and piece.owner ~= "FR" and forces.active(ctx, id)
  end)) do
    return forces.owner(ctx, block)
  end
  return nil
end

-- The Victory Point Summary items the Playbook gives (L563): each space's VP per turn to
-- its holder (Castile: 2); France +2 while Austria is at war; Austria +1 while its
-- Generalissimo marker is in play.
function endturn.summary(ctx)
  for _, front in ipairs(forces.FRONTS) do
    local place = "front." .. string.lower(front)
    for _, space in ipairs(ctx.data.places[place].spaces) do
      local per_turn = space.props.vp_per_turn
      if per_turn then
        local power = holder(ctx, front, space.id)
        if power then
          add_vp(ctx, power, per_turn, "holding " .. space.name)
        end
      end
    end
  end
  if powers.austria_at_war(ctx) then
    add_vp(ctx, "FR", 2, "Austria is at war with France")
  end
  local g = ctx.vars.generalissimo
  if g and g.power == "AU" then
    add_vp(ctx, "AU", 1, "the Austrian Generalissimo")
  end
end

-- The next turn's table (L565): the Leaders back to their powers, one deck of the other
-- cards not removed (the deal gathers the discard pile), the issues back on the Diplomacy
-- Display (those that leave the game once they have occurred apart: owner data
-- `removed_when_done`, asked for an issue funded this turn), the Military Support markers
-- back to their powers, the Battle DRM pawns off, and the turn marker on.
function endturn.prepare(ctx)
  handicap.end_of_turn(ctx)
  for _, card in ipairs(ctx.data.card_ids) do
    if cards.is_leader(ctx, card) then
      local zone = ctx:card_zone(card)
      local power = ctx.data.cards[card].fields.nation
      if zone ~= "removed" and not powers.out(ctx, power) and zone ~= powers.hand_zone(ctx, power) then
        ctx:move_card(card, powers.hand_zone(ctx, power))
      end
    end
  end
  local funded = (ctx.vars.government or {}).funded or {}
  for _, id in ipairs(ctx.data.piece_ids) do
    local piece = ctx.data.pieces[id]
    if piece.kind == "issue" then
      local place, space = ctx:space_of(id)
      if place ~= nil and funded[id] and piece.props.removed_when_done == true then
        -- An issue that leaves the game once it has occurred (Sweden at War).
        ctx:remove_piece(id)
        ctx:log(string.format("%s has occurred: it leaves the game.", piece.name))
      elseif place ~= nil and not (place == "diplomacy" and space == "display") then
        ctx:place(id, "diplomacy", "display")
      end
    end
  end
  for _, box in ipairs(ctx.data.box_ids) do
    for kind, n in pairs(ctx:box(box)) do
      if forces.is_support(kind) and n > 0 then
        local owner = forces.owner_of_kind(ctx, kind)
        if box ~= "supports." .. owner then
          ctx:move_units(box, "supports." .. owner, kind, n)
        end
      end
    end
  end
  for _, power in ipairs(powers.CLOCKWISE) do
    ctx:set_counter("resources." .. power, 0)
    ctx:place("marker.debate." .. power, "debate", power)
  end
  ctx:set_counter("battle_drm.FR", 0)
  ctx:set_counter("battle_drm.allied", 0)
  ctx.vars.government = nil
  ctx.vars.war = nil
  local turn = ctx:turn() + 1
  ctx:set_turn(turn)
  ctx:place("marker.turn", "turn", tostring(turn))
  ctx:log(string.format("Turn %d begins: %d cards are gathered for the deal.", turn,
    ctx:count("deck") + ctx:count("discard")))
end

-- The players' own Victory Point Summary items (the player aid's, not in the Playbook):
-- they adjust the VP by hand, and each adjustment is an input.
endturn.vp_summary = {}

function endturn.vp_summary.prompt(ctx)
  local actions = { { name = "done", label = "The Victory Point Summary is complete" } }
  for _, power in ipairs(powers.in_game(ctx)) do
    actions[#actions + 1] = { name = "adjust", arg = { power = power, vp = 1 }, counter = "vp." .. power,
      label = string.format("%s +1 VP", name(ctx, power)) }
    actions[#actions + 1] = { name = "adjust", arg = { power = power, vp = -1 }, counter = "vp." .. power,
      label = string.format("%s -1 VP", name(ctx, power)) }
  end
  return {
    text = string.format("End of turn %d: the Victory Point Summary's items the Playbook gives are scored (the log lists them). Your player aid's summary lists more: for each that applies, give or take the power's VP with these buttons, then say the summary is complete.",
      ctx:turn()),
    actions = actions,
  }
end

function endturn.vp_summary.adjust(ctx, arg)
  local vp = ctx:add_counter("vp." .. arg.power, arg.vp)
  ctx:log(string.format("Victory Point Summary (by the players): %s %+d VP (%d).", name(ctx, arg.power), arg.vp, vp))
end

function endturn.vp_summary.done(ctx)
  ctx:pop({})
end

-- The End of Turn (16.5), step by step: the Victory Point Summary (the Playbook's items,
-- then the players' own), Napoleon's surrender where the rules allow it, the end of the
-- game, and otherwise the next turn's table.
endturn.end_of_turn = steps.procedure("16.5 End of Turn", {
  {
    name = "Victory Point Summary",
    calls = "vp_summary",
    run = function(ctx)
      endturn.summary(ctx)
      -- The demo has no copy of the player aid: its own items are left out, and said so.
      if ctx:demo() then
        ctx:log("Demo: the player aid's other Victory Point Summary items are left out (with your copy's values, the players score them here).")
        return
      end
      return steps.call("vp_summary", {})
    end,
  },
  {
    name = "Napoleon's surrender",
    calls = "decide",
    run = function(ctx)
      if victory.surrender_possible(ctx) then
        return steps.call("decide", { power = "FR", key = "surrender", everyone = true,
          text = "Has Napoleon surrendered this turn (Rules of Play 14, not in the Playbook)?",
          options = { { arg = false, label = "No" }, { arg = true, label = "Yes: the game ends" } } })
      end
    end,
    resume = decide.keep("surrendered"),
  },
  {
    name = "The end of the game",
    run = function(ctx)
      local result = victory.check(ctx, ctx.locals.surrendered)
      if result then
        ctx:game_over(result)
        return steps.stop()
      end
    end,
  },
  {
    name = "The next turn",
    run = endturn.prepare,
  },
  finish = function()
    return {}
  end,
})

return endturn

-- Congress of Vienna bots' shared library: the War Phase arithmetic the bots share. The
-- fronts still to fight; a hand of military cards assigned to those fronts (18.4.7.7: each
-- card to a front where it may be used, the fronts given as many cards as can be, with a
-- card tied to another where the bot wants synergy); and the Initial Battle Differential
-- (20.11.2, 21.10.2: Allied DRM less French DRM, without the cards; 18.4.7.6's withdrawal
-- reads the same difference); and the card a bot saves from its display (19.3, step 3). Lifted from the Lützen & Bautzen French bot.

local util = include("@lib/util.lua")
local flowchart = include("@lib/flowchart.lua")
local forces = include("rules/forces.lua")
local war = include("rules/war.lua")
local battle = include("rules/battle.lua")

local botwar = {}

-- The fronts still to fight this War Phase, `current` first.
function botwar.fronts_to_fight(ctx, current)
  local list, seen = {}, false
  for _, front in ipairs(forces.FRONTS) do
    if front == current then
      seen = true
    end
    if seen and (front == current or war.battle_on(ctx, front)) then
      list[#list + 1] = front
    end
  end
  return list
end

-- The Initial Battle Differential of the battle being fought: the Allies' Initial Battle
-- DRM less France's, with the two sums (without military cards or dice).
function botwar.differential(ctx)
  local allied = battle.initial_drm(ctx, "allied"):total()
  local french = battle.initial_drm(ctx, "FR"):total()
  return allied - french, allied, french
end

-- Assigns `hand` (military cards of `powers`, a side's) to `fronts` (the first is the battle
-- being fought, where `laid_here` cards lie already): `tied` lists cards to put first, each
-- {card, front, with?} (a card to its front, and another card with it: synergy); then every
-- other card, those with the fewest possible fronts first, one at a time to the front with
-- the fewest cards, at random among equals (`why`: the reason of the random draw). Returns
-- card -> front.
function botwar.assign_cards(ctx, hand, fronts, laid_here, powers, tied, why)
  local counts, plan = {}, {}
  for _, front in ipairs(fronts) do
    counts[front] = 0
  end
  counts[fronts[1]] = laid_here
  local function allowed(card)
    return util.filter(fronts, function(front)
      return battle.usable(ctx, card, powers, front)
    end)
  end
  local function put(card, front)
    plan[card] = front
    counts[front] = counts[front] + 1
  end
  for _, entry in ipairs(tied or {}) do
    if util.contains(hand, entry.card) and util.contains(allowed(entry.card), entry.front) then
      put(entry.card, entry.front)
      if entry.with and util.contains(hand, entry.with) and util.contains(allowed(entry.with), entry.front) then
        put(entry.with, entry.front)
      end
    end
  end
  local rest = {}
  for _, card in ipairs(hand) do
    rest[#rest + 1] = card
  end
  table.sort(rest, function(a, b)
    local na, nb = #allowed(a), #allowed(b)
    if na ~= nb then
      return na < nb
    end
    return a < b
  end)
  for _, card in ipairs(rest) do
    if plan[card] == nil then
      local fewest, equal = nil, {}
      for _, front in ipairs(allowed(card)) do
        if fewest == nil or counts[front] < fewest then
          fewest, equal = counts[front], { front }
        elseif counts[front] == fewest then
          equal[#equal + 1] = front
        end
      end
      if #equal > 0 then
        put(card, #equal == 1 and equal[1] or equal[ctx:random(#equal, why)])
      end
    end
  end
  return plan
end

-- The card-driven solo method's step 3 (19.3) for a bot: it saves the offered possibly
-- usable military card with the largest DRM (19.5's example saves its neutral one; a DRM not
-- entered counts as 0), else none.
function botwar.save(ctx, actions, t)
  local function drm(card)
    return ctx:known("card", card, "drm") and math.abs(ctx.data.cards[card].fields.drm or 0) or 0
  end
  local i = flowchart.best(actions, function(a)
    return a.name == "save" and drm(a.card) or nil
  end)
  if i then
    return t:choose(i, "19.3, step 3: save %s for the War Phase (the largest DRM offered, %d).",
      ctx.data.cards[actions[i].card].name, drm(actions[i].card))
  end
  return t:choose(flowchart.first(actions, function(a)
    return a.name == "save_none"
  end), "19.3, step 3: nothing to save.")
end

-- France's own Military Operations funded this Government Phase (the French issue).
function botwar.french_ops_funded(ctx)
  local n = 0
  for id, power in pairs((ctx.vars.government or {}).funded or {}) do
    if power == "FR" and ctx.data.pieces[id].props.issue == "mil_op_fr" then
      n = n + 1
    end
  end
  return n
end

-- A bot's battle losses where its chart gives no order: from the largest box, `why`
-- giving the reason from the box's units and the loss's label.
function botwar.losses_by_size(why)
  return function(ctx, _, actions, t)
    local i, n = flowchart.best(actions, function(a)
      return a.arg and a.arg.box and ctx:units(a.arg.box, a.arg.kind) or nil
    end)
    return t:choose(i or 1, why, tostring(n), actions[i or 1].label)
  end
end

-- A card's battle DRM, whichever side it counts for.
function botwar.drm_of(ctx, card)
  return math.abs((ctx:known("card", card, "drm") and ctx.data.cards[card].fields.drm) or 0)
end

local function own_drm(ctx, a)
  if a.name ~= "lay" or (a.arg.target ~= nil and a.arg.target ~= "own") then
    return nil
  end
  return botwar.drm_of(ctx, a.card)
end

-- The rows both bots' military-card tables may hold (20.11.2, 21.10.2), for the side whose
-- cards `side_powers(ctx)` may use: the card with the largest DRM that no other battle still
-- to fight may use, and the card with the largest DRM.
function botwar.card_rows(side_powers)
  return {
    front_only = { words = "the card with the largest DRM that no other battle still to fight may use",
      pick = function(ctx, actions)
        local front = ctx.locals.front
        local later = botwar.fronts_to_fight(ctx, front)
        return flowchart.best(actions, function(a)
          for _, other in ipairs(later) do
            if a.name == "lay" and other ~= front and battle.usable(ctx, a.card, side_powers(ctx), other) then
              return nil
            end
          end
          return own_drm(ctx, a)
        end)
      end },
    largest = { words = "the card with the largest DRM", pick = function(ctx, actions)
      return flowchart.best(actions, function(a)
        return own_drm(ctx, a)
      end)
    end },
  }
end

return botwar

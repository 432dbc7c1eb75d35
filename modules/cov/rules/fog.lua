-- Congress of Vienna: Fog of War (Playbook 23.1, L2019-L2031; 20.11.2 L1719, 21.10.2 L1920,
-- 22.1 L1996). After both sides have laid their military cards for a battle, a side that
-- draws Fog of War (rules/solitaire.lua says which) draws from the draw deck, the cards
-- not dealt this turn, one card for each military card it played (one if it played none),
-- one at a time, and each drawn card goes, in this order: (a) into this battle for the
-- side, if the side may use it here; (b) into this battle for the other side, if that side
-- may; (c) into the side's hand, if the side may use it only in a battle still to come this
-- War Phase; (d) to the discard pile. No card is drawn when a side withdrew or the deck is
-- empty. The readings (per side, not per power; cards drawn do not draw more) are in
-- RULES-GAPS.md.

local cards = include("rules/cards.lua")

local fog = {}

local SIDE_NAMES = { FR = "France", allied = "the Allies" }
local DRAW = { FR = "France draws", allied = "the Allies draw" }

local function other(side)
  return side == "FR" and "allied" or "FR"
end

-- Draws and resolves one side's Fog of War cards. `battle` tells what the battle knows:
-- `front`; `laid` (the cards each side laid, lists of {card, target}, which the card played
-- here joins); `counts` (how many military cards each side laid before any Fog of War);
-- `usable(card, side, front)` (whether a side may use a card in a battle on that front);
-- `later` (the fronts with a battle still to come); `hands` (each side's hand zone).
function fog.draw(ctx, side, battle)
  local n = math.max(battle.counts[side], 1)
  if ctx:count("deck") == 0 then
    ctx:log(string.format("Fog of War (23.1): the draw deck is empty; %s nothing.", DRAW[side]))
    return
  end
  ctx:log(string.format("Fog of War (23.1): %s %d card%s (%d military card%s played).", DRAW[side], n,
    n == 1 and "" or "s", battle.counts[side], battle.counts[side] == 1 and "" or "s"))
  for _ = 1, n do
    local card = ctx:zone("deck")[1]
    if card == nil then
      ctx:log("Fog of War: the draw deck runs out.")
      return
    end
    local f = ctx.data.cards[card].fields
    local military = f.military == true
    local words = cards.name(ctx, card)
    if military and battle.usable(card, side, battle.front) then
      ctx:move_card(card, battle.hands[side])
      table.insert(battle.laid[side], { card = card, target = f.drm_target == "enemy" and "enemy" or "own" })
      ctx:log(string.format("Fog of War (a): %s, played for %s in this battle.", words, SIDE_NAMES[side]))
    elseif military and battle.usable(card, other(side), battle.front) then
      ctx:move_card(card, battle.hands[other(side)])
      table.insert(battle.laid[other(side)], { card = card, target = f.drm_target == "enemy" and "enemy" or "own" })
      ctx:log(string.format("Fog of War (b): %s, played for %s in this battle.", words, SIDE_NAMES[other(side)]))
    else
      local later = false
      for _, front in ipairs(military and battle.later or {}) do
        later = later or battle.usable(card, side, front)
      end
      if later then
        ctx:move_card(card, battle.hands[side])
        ctx:log(string.format("Fog of War (c): %s, into %s hand for a battle still to come.", words,
          side == "FR" and "France's" or "the Coalition's"))
      else
        ctx:move_card(card, "discard")
        ctx:log(string.format("Fog of War (d): %s, discarded.", words))
      end
    end
  end
end

return fog

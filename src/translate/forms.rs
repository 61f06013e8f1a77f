//! Every action the rules translator writes, as the primitive and the arguments it binds, named
//! as the primitive catalogue names them. Where each argument goes, and how many there are, is
//! the catalogue's business: [`super::network::NetworkBuilder`] lays each action out in the
//! order of the catalogue of the profile in use, so the same rule writes the 2023 `cut` (six
//! arguments) and the 2024 one (seven). Listing the forms in one table lets a test hold every
//! one of them against both profiles' catalogues.

use crate::data::catalogue::PrimitiveSig;

macro_rules! forms {
    ($($(#[$doc:meta])* $form:ident = $primitive:literal [$($arg:literal),*];)*) => {
        /// An action of the rules translator: a primitive with the arguments it binds. Every
        /// other argument of the primitive gets a fresh variable: an output, or a default the
        /// kitchen supplies (a tool, a container, a unit), which a profile may not have.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Form {
            $($(#[$doc])* $form,)*
        }

        impl Form {
            /// Every form the rules can write.
            pub const ALL: &[Form] = &[$(Form::$form,)*];

            pub fn primitive(self) -> &'static str {
                match self {
                    $(Form::$form => $primitive,)*
                }
            }

            /// The arguments the action binds, by name; `a|b` is an argument the profiles
            /// name differently.
            pub fn bound(self) -> &'static [&'static str] {
                match self {
                    $(Form::$form => &[$($arg),*],)*
                }
            }
        }
    };
}

forms! {
    GetKitchen = "get-kitchen" [];
    FetchAndProportion = "fetch-and-proportion" ["ingredient-concept", "quantity", "unit"];
    Fetch = "fetch" ["concept-to-fetch", "quantity"];
    Crack = "crack" ["eggs"];
    PreheatOven = "preheat-oven" ["quantity", "unit"];
    Mix = "mix" ["container-with-input-ingredients"];
    Beat = "beat" ["container-with-ingredients"];
    Mingle = "mingle" ["container-with-input-ingredients"];
    Sift = "sift" ["container-with-ingredients-to-be-sifted"];
    /// Baking in an oven preheated earlier, at its temperature.
    BakeInOven = "bake" ["thing-to-bake", "oven-to-bake-in", "time-to-bake-quantity", "time-to-bake-unit"];
    /// Baking in the kitchen's oven at a temperature of the clause's.
    BakeAt = "bake" ["thing-to-bake", "time-to-bake-quantity", "time-to-bake-unit", "target-temperature-quantity", "target-temperature-unit"];
    Cut = "cut" ["object", "cut-pattern"];
    Dip = "dip" ["object", "dip-container"];
    Sprinkle = "sprinkle" ["object", "topping-container"];
    Refrigerate = "refrigerate" ["container-with-ingredients"];
    RefrigerateFor = "refrigerate" ["container-with-ingredients", "cooling-quantity", "cooling-unit"];
    LeaveForTime = "leave-for-time" ["container-with-ingredients", "cooling-quantity", "cooling-unit"];
    BringToTemperature = "bring-to-temperature" ["container-with-ingredients"];
    PortionAndArrange = "portion-and-arrange" ["container-with-dough", "quantity", "unit"];
    Shape = "shape" ["portions", "shape"];
    /// The thing lined is a `baking-tray` in 2023.
    Line = "line" ["thing-to-be-lined|baking-tray"];
    Grease = "grease" ["container-to-grease"];
    GreaseWith = "grease" ["container-to-grease", "ingredient-to-grease-with"];
    Cover = "cover" ["object"];
    /// Into a new container, the kitchen's default.
    TransferContents = "transfer-contents" ["container-with-input-ingredients"];
    TransferContentsInto = "transfer-contents" ["target-container", "container-with-input-ingredients"];
    TransferItems = "transfer-items" ["items-to-transfer", "destination"];
    TransferItemsArranged = "transfer-items" ["items-to-transfer", "arrangement-pattern", "destination"];
    Fry = "fry" ["thing-to-fry"];
    Melt = "melt" ["container-with-input-ingredients"];
    Boil = "boil" ["thing-to-boil"];
    BoilFor = "boil" ["thing-to-boil", "time-to-boil-quantity", "time-to-boil-unit"];
    Drain = "drain" ["container-with-ingredients"];
    Wash = "wash" ["container-with-input-ingredients"];
    Mash = "mash" ["input-ingredient"];
    Peel = "peel" ["input-ingredient"];
    Grind = "grind" ["container-with-ingredients-to-be-ground"];
}

impl Form {
    /// Where each bound argument goes in `sig`: its position, or `None` for a name the
    /// primitive does not have.
    pub fn positions(self, sig: &PrimitiveSig) -> Vec<Option<usize>> {
        self.bound()
            .iter()
            .map(|names| names.split('|').find_map(|n| sig.arg_index(n)))
            .collect()
    }
}
